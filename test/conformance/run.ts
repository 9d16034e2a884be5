// `npm run conformance`: starts the fixture profile (test/conformance/fixture.ts) on a random loopback
// port, checks that its auth is really on, runs the MCP conformance suite (@modelcontextprotocol/conformance)
// against it with test/conformance/baseline.yml, prints the results and exits with the suite's code.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFixtureProfile } from './fixture.ts';

const here = dirname(fileURLToPath(import.meta.url));
const baseline = join(here, 'baseline.yml');
// The CLI's own entry, run with this Node (22: the suite needs fs.globSync), not whatever `env node` finds.
const suiteBin = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
  'dist/index.js',
);

const serverLog: string[] = [];
const profile = await startFixtureProfile({ logSink: (line) => serverLog.push(line) });
const outputDir = await mkdtemp(join(tmpdir(), 'chambers-conformance-'));
let code = 1;
try {
  // The token wrapper must not hide a missing auth check: the bare app refuses an unauthenticated call.
  const bare = await profile.appFetch(
    new Request(profile.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    }),
  );
  if (bare.status !== 401 || !bare.headers.get('www-authenticate')?.startsWith('Bearer')) {
    throw new Error(
      `the fixture profile answered an unauthenticated request with ${bare.status}, expected 401`,
    );
  }

  console.log(`Fixture profile at ${profile.mcpUrl}; baseline ${baseline}\n`);
  code = await new Promise<number>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [suiteBin, 'server', '--url', profile.mcpUrl, '--expected-failures', baseline, '-o', outputDir],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    child.once('error', reject);
    child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal === null ? 1 : 128)));
  });

  // Scenario-level counts from the saved checks (the suite prints check-level totals, and its summary
  // shows a scenario with only a WARNING as passed although the baseline check counts it as failed).
  const expected = new Set(
    [...(await readFile(baseline, 'utf8')).matchAll(/^\s*-\s*([\w-]+)\s*$/gm)].map((m) => m[1]),
  );
  const passed: string[] = [];
  const failed: string[] = [];
  for (const dir of (await readdir(outputDir)).sort()) {
    const checks = JSON.parse(await readFile(join(outputDir, dir, 'checks.json'), 'utf8')) as {
      status: string;
    }[];
    const scenario = dir.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT.*$/, '');
    (checks.some((c) => c.status === 'FAILURE' || c.status === 'WARNING') ? failed : passed).push(scenario);
  }
  const unexpected = failed.filter((name) => !expected.has(name));
  console.log(`\nScenarios: ${passed.length} passed (${passed.join(', ')})`);
  console.log(
    `           ${failed.length} failed, ${failed.length - unexpected.length} of them listed in the baseline`,
  );
  if (unexpected.length > 0) console.log(`           unexpected: ${unexpected.join(', ')}`);
  console.log(`Suite exit code ${code}`);
  const problems = serverLog.filter((line) => /"level":"(warn|error)"/.test(line));
  if (problems.length > 0) console.log(`\nServer warnings/errors during the run:\n${problems.join('\n')}`);
} catch (e) {
  console.error(e);
  code = 1;
} finally {
  await profile.close();
  await rm(outputDir, { recursive: true, force: true });
}
process.exit(code);
