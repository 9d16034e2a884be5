/**
 * Start-up and memory of the Node server (part of `npm run bench`; alone: `node bench/startup.ts`): the
 * server started once on a fresh data directory (the database, its tokens and the bundle), then STARTUP_RUNS
 * (5) interleaved rounds on that existing directory, each timing spawn → the first answered tools/list for
 * `npm start` itself, `node entry/start.mjs` (the bundled entry npm runs), the same without V8's code cache and
 * `node entry/node.ts` (unbundled), beside two baselines of the same round: `node -e` (boot to exit) and a
 * bare PGlite open as it ships, plus one query, on the same directory. Medians, the ratios to the bare open, and the server's own start-up line of
 * the median run are printed. Then, in the last run, the process's RSS idle and after 10,000 mixed calls
 * (tools/list, case_create, case_get, case_list, search_case and the plain JSON route), 10 at a time.
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

type Variant = 'bundled' | 'uncached' | 'unbundled' | 'npm';

/**
 * What `npm start` runs: entry/start.mjs, the bundled entry; `uncached` the same without V8's code cache
 * (CHAMBERS_COMPILE_CACHE=0: the bundle compiled at every start, as before it was kept); `unbundled` is
 * entry/node.ts as it is, `npm` the command itself (npm, its Node-version check, then entry/start.mjs), in its
 * own process group so a stop reaches the server and not only npm.
 */
function start(dataDir: string, port: number, variant: Variant = 'bundled') {
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...(variant === 'uncached' ? { CHAMBERS_COMPILE_CACHE: '0' } : {}),
  };
  const child =
    variant === 'npm'
      ? spawn('npm', ['start', '--silent'], {
          cwd: root,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: true,
        })
      : spawn(process.execPath, [variant === 'unbundled' ? 'entry/node.ts' : 'entry/start.mjs'], {
          cwd: root,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  return { child, output: () => out, group: variant === 'npm' };
}

/** Spawn → exit of a process that prints `ready` when done (the baselines), in ms. */
async function timed(args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}: ${out}`);
  return performance.now() - started;
}

/**
 * The floor under the server's start, on the same directory: PGlite opened as it ships (its own defaults,
 * pg_trgm loaded, nothing compiled ahead) and one query, in a bare `node` with nothing else loaded.
 */
const barePglite = (pgdata: string) => [
  '--input-type=module',
  '-e',
  `import { PGlite } from '@electric-sql/pglite'; import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
   const db = new PGlite({ dataDir: ${JSON.stringify(pgdata)}, extensions: { pg_trgm } });
   await db.query('select 1'); await db.close(); console.log('ready');`,
];

async function stop(server: { child: ChildProcess; group: boolean }) {
  const { child } = server;
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // npm → sh → node: a signal to npm alone leaves the server running (and holding DATA_DIR).
  if (server.group && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
  else child.kill('SIGTERM');
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
    await stop(first);
    const headers = {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    };
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    /** Spawn → the first answered tools/list (refused connections until it listens). */
    const firstAnswer = async (variant: Variant) => {
      const started = performance.now();
      const server = start(dataDir, port, variant);
      for (;;) {
        if (server.child.exitCode !== null) throw new Error(`${variant} start exited: ${server.output()}`);
        const res = await fetch(`${url}/mcp`, { method: 'POST', headers, body: list }).catch(() => null);
        if (res !== null && res.status === 200 && (await res.text()).includes('case_create')) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      return { ms: performance.now() - started, server };
    };
    // Runs interleave the variants and the baselines, so a change of load on a shared machine hits all alike.
    const times: Record<Variant | 'node' | 'pglite', number[]> = {
      node: [],
      pglite: [],
      npm: [],
      bundled: [],
      uncached: [],
      unbundled: [],
    };
    const lines: { ms: number; line: string }[] = [];
    let last: ReturnType<typeof start> | undefined;
    for (let run = 0; run < RUNS; run++) {
      times.node.push(await timed(['-e', 'console.log("ready")']));
      times.pglite.push(await timed(barePglite(join(dataDir, 'pglite'))));
      for (const variant of ['unbundled', 'uncached', 'npm', 'bundled'] as const) {
        const { ms, server } = await firstAnswer(variant);
        times[variant].push(ms);
        if (variant === 'bundled')
          lines.push({ ms, line: /^startup: .*$/m.exec(server.output())?.[0] ?? '(none)' });
        if (variant === 'bundled' && run === RUNS - 1) last = server;
        else await stop(server);
      }
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
    await stop(last);
    const medianOf = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
    const m = Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, medianOf(xs)])) as Record<
      keyof typeof times,
      number
    >;
    const runs = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
    const median = m.bundled;
    console.log(
      `\nStart-up on an existing data directory, spawn → first answered tools/list, medians of ${RUNS} interleaved runs (goal ≤ 1000 ms for npm start):`,
    );
    console.log(`  npm start                      ${m.npm.toFixed(0)} ms (runs: ${runs(times.npm)})`);
    console.log(`  node entry/start.mjs (bundled) ${median.toFixed(0)} ms (runs: ${runs(times.bundled)})`);
    console.log(
      `  bundled, no V8 code cache      ${m.uncached.toFixed(0)} ms (runs: ${runs(times.uncached)})`,
    );
    console.log(
      `  node entry/node.ts (unbundled) ${m.unbundled.toFixed(0)} ms (runs: ${runs(times.unbundled)})`,
    );
    console.log(
      `  baselines: node -e (boot to exit) ${m.node.toFixed(0)} ms; bare PGlite open + select 1 on the same directory ${m.pglite.toFixed(0)} ms`,
    );
    console.log(
      `  ratios: npm start / bare PGlite ${(m.npm / m.pglite).toFixed(2)}, bundled / bare PGlite ${(median / m.pglite).toFixed(2)}, ` +
        `npm start − bundled (npm's own start) ${(m.npm - median).toFixed(0)} ms`,
    );
    // The server's own line of the median bundled run: where its time went.
    const mid = [...lines].sort((a, b) => a.ms - b.ms)[Math.floor(lines.length / 2)];
    console.log(`  the server's own line (median run): ${mid?.line ?? '(none)'}`);
    console.log(
      `Memory: RSS ${idle.toFixed(0)} MB idle, ${after.toFixed(0)} MB after ${CALLS} mixed calls (${(CALLS / seconds).toFixed(0)} calls/s, 10 at a time)`,
    );
    return {
      start_npm_ms: m.npm.toFixed(0),
      start_ms: median.toFixed(0),
      start_uncached_ms: m.uncached.toFixed(0),
      start_unbundled_ms: m.unbundled.toFixed(0),
      start_pglite_bare_ms: m.pglite.toFixed(0),
      start_pglite_ratio: (median / m.pglite).toFixed(2),
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
