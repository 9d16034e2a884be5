/**
 * Start-up and memory of the Node server (part of `npm run bench`; alone: `node bench/startup.ts`): the
 * server as `npm start` runs it (`node entry/start.ts`: the bundled entry, the embedded database in a data
 * directory), started once to create the directory, its tokens and the bundle, then STARTUP_RUNS (5) times
 * unbundled (`node entry/node.ts`, the before) and STARTUP_RUNS times bundled on that existing directory: the
 * clock runs from the spawn to the first answered tools/list. The server's own start-up line is printed too. Then, in the last run, the process's RSS idle
 * and after 10,000 mixed calls (tools/list, case_create, case_get, case_list, search_case and the plain
 * JSON route), 10 at a time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort } from '../scripts/dev/worker.ts';
import { root } from './app.ts';

const RUNS = Number(process.env.STARTUP_RUNS ?? 5);
const CALLS = Number(process.env.STARTUP_CALLS ?? 10_000);

/** What `npm start` runs: entry/start.ts, the bundled entry (bundled: false, entry/node.ts as it is). */
function start(dataDir: string, port: number, bundled = true) {
  const child = spawn(process.execPath, [bundled ? 'entry/start.ts' : 'entry/node.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  return { child, output: () => out };
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
}

const rssMb = async (pid: number) => {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
};

export async function runStartupBench(): Promise<Record<string, string>> {
  const dataDir = await mkdtemp(join(tmpdir(), 'chambers-startup-'));
  try {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // First start: creates the database and prints one token per agent.
    const first = start(dataDir, port);
    let token: string | undefined;
    for (let i = 0; i < 1200 && token === undefined; i++) {
      await new Promise((r) => setTimeout(r, 100));
      token = /^\s+ceo\s+(\S+)$/m.exec(first.output())?.[1];
      if (first.child.exitCode !== null) throw new Error(`npm start exited: ${first.output()}`);
    }
    if (token === undefined) throw new Error(`no ceo token printed: ${first.output()}`);
    await stop(first.child);
    const headers = {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    };
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    // Before: the entry unbundled, as `npm start` ran it until the bundle.
    const unbundled: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const server = start(dataDir, port, false);
      for (;;) {
        if (server.child.exitCode !== null) throw new Error(`entry/node.ts exited: ${server.output()}`);
        const res = await fetch(`${url}/mcp`, { method: 'POST', headers, body: list }).catch(() => null);
        if (res !== null && res.status === 200 && (await res.text()).includes('case_create')) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      unbundled.push(performance.now() - started);
      await stop(server.child);
    }
    const times: number[] = [];
    const outputs: (() => string)[] = [];
    let last: ReturnType<typeof start> | undefined;
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const server = start(dataDir, port);
      for (;;) {
        if (server.child.exitCode !== null) throw new Error(`npm start exited: ${server.output()}`);
        const res = await fetch(`${url}/mcp`, { method: 'POST', headers, body: list }).catch(() => null);
        if (res !== null && res.status === 200 && (await res.text()).includes('case_create')) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      times.push(performance.now() - started);
      if (run < RUNS - 1) await stop(server.child);
      else last = server;
      outputs.push(server.output);
    }
    if (last === undefined || last.child.pid === undefined) throw new Error('no server left running');
    const pid = last.child.pid;
    await new Promise((r) => setTimeout(r, 2000));
    const idle = await rssMb(pid);
    const call = async (i: number) => {
      const kind = i % 6;
      if (kind === 5) {
        const r = await fetch(`${url}/v1/tools/case_list`, { method: 'POST', headers, body: '{"limit":5}' });
        return r.text();
      }
      const [name, args] = (
        [
          ['case_create', { case_number: `ערר ${i}/26`, title: 'זיכרון' }],
          ['case_list', { limit: 5 }],
          ['case_get', { case_id: caseId }],
          ['search_case', { case_id: caseId, query: 'היטל השבחה' }],
        ] as const
      )[kind % 4] as readonly [string, Record<string, unknown>];
      const body =
        kind === 4
          ? list
          : JSON.stringify({
              jsonrpc: '2.0',
              id: i,
              method: 'tools/call',
              params: { name, arguments: args },
            });
      const r = await fetch(`${url}/mcp`, { method: 'POST', headers, body });
      return r.text();
    };
    const created = await fetch(`${url}/v1/tools/case_create`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ case_number: 'ערר 0/26', title: 'זיכרון' }),
    });
    const caseId = ((await created.json()) as { data: { case: { id: string } } }).data.case.id;
    let next = 0;
    const t = performance.now();
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < CALLS) await call(next++);
      }),
    );
    const seconds = (performance.now() - t) / 1000;
    const after = await rssMb(pid);
    await stop(last.child);
    const medianOf = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
    const median = medianOf(times);
    console.log(
      `\nStart-up (npm start: entry/start.ts, the bundled entry, on an existing data directory): first tools/list answered after ` +
        `median ${median.toFixed(0)} ms (runs: ${times.map((x) => x.toFixed(0)).join(', ')}); goal ≤ 1000 ms`,
    );
    console.log(
      `  unbundled (node entry/node.ts): median ${medianOf(unbundled).toFixed(0)} ms (runs: ${unbundled.map((x) => x.toFixed(0)).join(', ')})`,
    );
    const lastOutput = outputs.at(-1)?.() ?? '';
    console.log(`  the server's own line, last run: ${/^startup: .*$/m.exec(lastOutput)?.[0] ?? '(none)'}`);
    console.log(
      `Memory: RSS ${idle.toFixed(0)} MB idle, ${after.toFixed(0)} MB after ${CALLS} mixed calls (${(CALLS / seconds).toFixed(0)} calls/s, 10 at a time)`,
    );
    return {
      start_ms: median.toFixed(0),
      start_unbundled_ms: medianOf(unbundled).toFixed(0),
      rss_idle_mb: idle.toFixed(0),
      rss_after_calls_mb: after.toFixed(0),
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const pairs = await runStartupBench();
  console.log(
    `bench: ${Object.entries(pairs)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
}
