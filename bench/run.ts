/**
 * `npm run bench`: Chambers against raw Hono JSON echoes (the floors), side by side in one process, over
 * loopback HTTP; then database and KV round trips per case tool, and a CPU profile of tools/call.
 *
 * - The app is the real one (createChambers, PGlite in memory, the Postgres KV adapter on a second
 *   PGlite so its statements are counted as KV calls, not database round trips), plus one fixture tool,
 *   `bench_noop_get`, granted to ceo: a tools/call that measures auth, decoding and the envelope only.
 * - Load: autocannon in a worker thread, 10 connections; BENCH_ROUNDS (3) rounds of every case for
 *   BENCH_SECONDS (2) each, the echoes at the start of each round and at the end. A ratio is the median
 *   over rounds of the case against the runs beside it of the echo that answers the same bytes (tools/list's
 *   for list, a tools/call's for call): other processes on the machine move the
 *   absolute numbers a lot, and a disturbed round should not decide the result.
 * - Then the queue (bench/queue.ts): 5,000 no-op jobs drained by 1 and by 4 concurrent drains, on the
 *   local PostgreSQL when reachable and on PGlite, counting jobs that ran twice or never.
 * - Then the search benchmark (bench/search.ts): ranked search vs a sequential ILIKE scan over ≥ 10,000 chunks.
 * - The last line is `bench: call_ratio=<x> list_ratio=<y> queue_…=… search_…=…` (2025-era stateless
 *   requests over echo, then the queue and search figures).
 */
import { readdir, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { z } from 'zod';
import { tools as allTools, jobHandlers } from '../entry/registries.ts';
import { parseAgents } from '../src/agents/grants.ts';
import { mintToken } from '../src/auth/tokens.ts';
import { defineTool } from '../src/contract/define.ts';
import { callTool } from '../src/contract/execute.ts';
import { migrateDb } from '../src/db/migrate.ts';
import { dumpPglite, openPglite } from '../src/db/pglite.ts';
import { noJobs } from '../src/jobs/context.ts';
import { createPostgresKv } from '../src/kv/postgres.ts';
import type { KvStore } from '../src/kv/types.ts';
import { createLogger } from '../src/log.ts';
import { createChambers } from '../src/server.ts';
import type { LoadRequest, LoadResult } from './load.ts';
import { profileWhile } from './profile.ts';
import { benchQueue, printQueueBench } from './queue.ts';
import { runSearchBench } from './search.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;
const NOOP = 'bench_noop_get';
const root = fileURLToPath(new URL('../', import.meta.url));
const benchStarted = performance.now();

// ---------------------------------------------------------------------------------------------
// The app: real tools + the no-op fixture, real agents with ceo also granted the fixture.

const noop = defineTool({
  name: NOOP,
  title: 'Benchmark no-op',
  description:
    'Benchmark fixture: returns an empty object without touching any store, so a call measures the ' +
    'transport, auth, argument decoding and the envelope only.',
  input: {},
  output: z.object({}),
  mutates: false,
  async run() {
    return {};
  },
});

async function benchAgents() {
  const files: Record<string, string> = {};
  for (const name of (await readdir(`${root}agents`)).filter((n) => n.endsWith('.md')).sort()) {
    let text = await readFile(`${root}agents/${name}`, 'utf8');
    if (name === 'ceo.md') {
      // INV-TOOL6 holds for the fixture too: granted and named in the instructions.
      text = text.replace(/^tools: \[/m, `tools: [${NOOP}, `);
      text += `\n\n- \`${NOOP}\` — benchmark fixture; does nothing.\n`;
    }
    files[`agents/${name}`] = text;
  }
  return parseAgents(files);
}

/** Counts what the app sends to the database (onQuery) and to the KV store, while `on`. */
const counter = { on: false, db: [] as string[], kv: [] as string[] };

function countingKv(inner: KvStore): KvStore {
  const note = <T>(op: string, run: () => Promise<T>): Promise<T> => {
    if (counter.on) counter.kv.push(op);
    return run();
  };
  return {
    kind: inner.kind,
    get: (k) => note('get', () => inner.get(k)),
    set: (k, v, t) => note('set', () => inner.set(k, v, t)),
    claim: (k, v, t) => note('claim', () => inner.claim(k, v, t)),
    compareAndSet: (k, e, v, t) => note('compareAndSet', () => inner.compareAndSet(k, e, v, t)),
    compareAndDelete: (k, e) => note('compareAndDelete', () => inner.compareAndDelete(k, e)),
    delete: (k) => note('delete', () => inner.delete(k)),
    ping: () => note('ping', () => inner.ping()),
  };
}

async function listen(fetch: (req: Request) => Response | Promise<Response>) {
  const server = serve({ fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const db = await openPglite({
  onQuery: (sql) => {
    if (counter.on) counter.db.push(sql);
  },
});
await migrateDb(db);
const kvDb = await openPglite({ loadDataDir: await dumpPglite(db) });
const kv = countingKv(createPostgresKv(kvDb.db));
const { app, registry, grants } = createChambers({
  agents: await benchAgents(),
  env: { RATE_LIMIT_PER_SECOND: '0', LOG_LEVEL: 'silent' },
  services: async () => ({ db: db.db, kv }),
  tools: [...allTools, noop],
  jobHandlers,
});
const chambers = await listen(app.fetch);
const token = await mintToken(db.db, 'ceo', 'bench');
const mcpUrl = `${chambers.url}/mcp`;

// ---------------------------------------------------------------------------------------------
// The requests, exactly as the official client 2.4.0 sends them in each era.

const clientInfo = { name: 'chambers-bench', version: '1.0.0' };
const legacyHeaders = {
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};
const modernHeaders = (method: string, name?: string): Record<string, string> => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-method': method,
  ...(name === undefined ? {} : { 'mcp-name': name }),
  'mcp-protocol-version': '2026-07-28',
});
const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': clientInfo,
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface Form {
  label: string;
  headers: Record<string, string>;
  body: string;
}
const forms = {
  call2025: {
    label: 'tools/call no-op (2025-11-25, binding fast path)',
    headers: legacyHeaders,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: NOOP, arguments: {} },
    }),
  },
  list2025: {
    label: 'tools/list (2025-11-25, binding fast path)',
    headers: legacyHeaders,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  },
  call2026: {
    label: 'tools/call no-op (2026-07-28, SDK handler)',
    headers: modernHeaders('tools/call', NOOP),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: NOOP, arguments: {}, _meta: modernMeta },
    }),
  },
  list2026: {
    label: 'tools/list (2026-07-28, SDK handler)',
    headers: modernHeaders('tools/list'),
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta } }),
  },
} satisfies Record<string, Form>;

type RpcReply = {
  id?: unknown;
  result?: { tools?: { name: string }[]; structuredContent?: { ok?: unknown }; isError?: boolean };
  error?: unknown;
};

/** Sends one request; returns the raw body and the JSON-RPC reply (from JSON or from the SSE stream). */
async function send(url: string, form: Form) {
  const res = await fetch(url, { method: 'POST', headers: form.headers, body: form.body });
  const type = res.headers.get('content-type') ?? '';
  const raw = await res.text();
  let reply: RpcReply | undefined;
  if (type.startsWith('text/event-stream')) {
    for (const line of raw.split('\n')) {
      if (!line.startsWith('data:')) continue;
      const message = JSON.parse(line.slice(5)) as RpcReply;
      if (message.id !== undefined) reply = message;
    }
  } else if (type.startsWith('application/json')) {
    reply = JSON.parse(raw) as RpcReply;
  }
  return { status: res.status, type, raw, reply };
}

/** Refuses to benchmark a request that does not produce the right result. */
async function verify(form: Form, kind: 'call' | 'list') {
  const r = await send(mcpUrl, form);
  const good =
    r.status === 200 &&
    r.reply?.error === undefined &&
    (kind === 'call'
      ? r.reply?.result?.structuredContent?.ok === true && r.reply.result.isError === false
      : (r.reply?.result?.tools ?? []).some((t) => t.name === NOOP) &&
        (r.reply?.result?.tools ?? []).some((t) => t.name === 'case_create'));
  if (!good) throw new Error(`${form.label}: unexpected answer ${r.status} ${r.type} ${r.raw.slice(0, 300)}`);
  return r;
}

const listReply = await verify(forms.list2025, 'list');
const callReply = await verify(forms.call2025, 'call');
await verify(forms.call2026, 'call');
await verify(forms.list2026, 'list');

// The floors: a raw Hono route that parses the JSON body and returns the same bytes as tools/list (which
// grows with every tool), and one that returns the same bytes as a tools/call, each the baseline of its kind.
const echoApp = new Hono();
echoApp.post('/echo', async (c) => {
  await c.req.json();
  return c.body(listReply.raw, 200, { 'content-type': listReply.type });
});
echoApp.post('/echo-call', async (c) => {
  await c.req.json();
  return c.body(callReply.raw, 200, { 'content-type': callReply.type });
});
const echo = await listen(echoApp.fetch);
const echoForm: Form = {
  label: `echo (raw Hono, same ${Buffer.byteLength(listReply.raw)} B as tools/list)`,
  headers: { 'content-type': 'application/json' },
  body: forms.list2025.body,
};
const echoCallForm: Form = {
  label: `echo (raw Hono, same ${Buffer.byteLength(callReply.raw)} B as tools/call)`,
  headers: { 'content-type': 'application/json' },
  body: forms.call2025.body,
};
for (const [path, form, reply] of [
  ['/echo', echoForm, listReply],
  ['/echo-call', echoCallForm, callReply],
] as const) {
  const check = await send(`${echo.url}${path}`, form);
  if (check.status !== 200 || check.raw !== reply.raw) throw new Error(`the ${path} route is not answering`);
}

// ---------------------------------------------------------------------------------------------
// Round trips per call of each case tool (sequential, auth already cached for this token).

async function callCounted(name: string, args: Record<string, unknown>, headerToken = token) {
  const form: Form = {
    label: name,
    headers: { ...modernHeaders('tools/call', name), authorization: `Bearer ${headerToken}` },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args, _meta: modernMeta },
    }),
  };
  counter.db = [];
  counter.kv = [];
  counter.on = true;
  const r = await send(mcpUrl, form);
  counter.on = false;
  const envelope = r.reply?.result?.structuredContent as
    | { ok: boolean; replayed?: boolean; data?: Record<string, unknown>; error?: { code: string } }
    | undefined;
  if (envelope === undefined) throw new Error(`${name}: no envelope in ${r.raw.slice(0, 300)}`);
  return { envelope, db: [...counter.db], kv: [...counter.kv] };
}

/** "insert cases", "select agent_tokens", "begin"... from a drizzle statement. */
function statementLabel(sql: string): string {
  const s = sql.trim().toLowerCase();
  const verb = /^(\w+)/.exec(s)?.[1] ?? '?';
  const table =
    /^(?:insert into|update|delete from)\s+"?(\w+)"?/.exec(s)?.[1] ?? /\bfrom\s+"?(\w+)"?/.exec(s)?.[1] ?? '';
  return table === '' ? verb : `${verb} ${table}`;
}

interface TripRow {
  tool: string;
  outcome: string;
  db: string[];
  kv: string[];
}
const trips: TripRow[] = [];
const record = (tool: string, r: Awaited<ReturnType<typeof callCounted>>) => {
  const outcome = r.envelope.ok
    ? r.envelope.replayed
      ? 'replayed'
      : 'ok'
    : `error ${r.envelope.error?.code}`;
  trips.push({ tool, outcome, db: r.db.map(statementLabel), kv: r.kv });
  return r;
};

const createArgs = { case_number: 'ערר 900/26', title: 'מדידת סבבים' };
const created = record('case_create (new)', await callCounted('case_create', createArgs));
const caseId = String((created.envelope.data?.case as { id?: unknown } | undefined)?.id);
record('case_create (repeat)', await callCounted('case_create', createArgs));
record('case_list', await callCounted('case_list', {}));
record('case_get', await callCounted('case_get', { case_id: caseId }));
record('case_update', await callCounted('case_update', { case_id: caseId, title: 'מדידת סבבים 2' }));
record('case_final_text_get', await callCounted('case_final_text_get', { case_id: caseId }));
record(
  'case_delete',
  await callCounted('case_delete', { case_id: caseId, owner_ack: true, reason: 'bench' }),
);
// The auth lookup is cached per token for 60 s; a token's first call pays it once.
const freshToken = await mintToken(db.db, 'ceo', 'bench-cold');
const cold = await callCounted(NOOP, {}, freshToken);
trips.push({
  tool: `${NOOP} (token's first call)`,
  outcome: cold.envelope.ok ? 'ok' : 'error',
  db: cold.db.map(statementLabel),
  kv: cold.kv,
});
const warm = await callCounted(NOOP, {}, freshToken);
trips.push({
  tool: `${NOOP} (cached token)`,
  outcome: warm.envelope.ok ? 'ok' : 'error',
  db: warm.db.map(statementLabel),
  kv: warm.kv,
});

// ---------------------------------------------------------------------------------------------
// Load, side by side: rounds of echo + the app's four forms, and a closing echo run.

function load(url: string, form: Form, seconds: number, warmupSeconds: number): Promise<LoadResult> {
  const request: LoadRequest = {
    url,
    headers: form.headers,
    body: form.body,
    connections: CONNECTIONS,
    warmupSeconds,
    seconds,
  };
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load.ts', import.meta.url), { workerData: request });
    worker.once('message', (m: { ok: true; result: LoadResult } | { ok: false; error: string }) => {
      if (m.ok) resolve(m.result);
      else reject(new Error(m.error));
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

const echoUrl = `${echo.url}/echo`;
const echoCallUrl = `${echo.url}/echo-call`;
const cases = [
  { key: 'echo', url: echoUrl, form: echoForm },
  { key: 'echoCall', url: echoCallUrl, form: echoCallForm },
  { key: 'call2025', url: mcpUrl, form: forms.call2025 },
  { key: 'list2025', url: mcpUrl, form: forms.list2025 },
  { key: 'call2026', url: mcpUrl, form: forms.call2026 },
  { key: 'list2026', url: mcpUrl, form: forms.list2026 },
] as const;
type CaseKey = (typeof cases)[number]['key'];
const results = new Map<CaseKey, LoadResult[]>(cases.map((c) => [c.key, []]));

const measure = async (key: CaseKey, url: string, form: Form, warmupSeconds: number) => {
  const result = await load(url, form, SECONDS, warmupSeconds);
  if (result.errors > 0 || result.non2xx > 0) {
    throw new Error(
      `${form.label}: ${result.errors} errors and ${result.non2xx} non-2xx responses under load`,
    );
  }
  results.get(key)?.push(result);
};
for (let round = 0; round < ROUNDS; round++) {
  for (const c of cases) await measure(c.key, c.url, c.form, round === 0 ? 1 : 0.5);
}
await measure('echo', echoUrl, echoForm, 0.5);
await measure('echoCall', echoCallUrl, echoCallForm, 0.5);
// Still correct after the load (a 200 carrying an error would not show up in the status counts).
await verify(forms.call2025, 'call');
await verify(forms.call2026, 'call');

const rps = (r: LoadResult) => r.requests / r.seconds;
const isEcho = (key: CaseKey) => key === 'echo' || key === 'echoCall';
/**
 * Per round: the case's req/s over the mean of the runs of its floor (the echo with the same response
 * bytes) just before and just after it.
 */
const ratios = (key: CaseKey) => {
  const echoes = results.get(key.startsWith('call') ? 'echoCall' : 'echo') ?? [];
  return (results.get(key) ?? []).map((r, i) => {
    const before = echoes[i];
    const after = echoes[i + 1];
    return before && after ? rps(r) / ((rps(before) + rps(after)) / 2) : Number.NaN;
  });
};
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1
    ? (s[mid] ?? Number.NaN)
    : ((s[mid - 1] ?? Number.NaN) + (s[mid] ?? Number.NaN)) / 2;
};
const merged = (key: CaseKey) => {
  const runs = results.get(key) ?? [];
  const all = new Float64Array(runs.reduce((n, r) => n + r.latencies.length, 0));
  let at = 0;
  for (const r of runs) {
    all.set(r.latencies, at);
    at += r.latencies.length;
  }
  all.sort();
  const q = (p: number) => all[Math.min(all.length - 1, Math.floor(p * all.length))] ?? Number.NaN;
  const requests = runs.reduce((n, r) => n + r.requests, 0);
  const seconds = runs.reduce((n, r) => n + r.seconds, 0);
  return { rps: requests / seconds, p50: q(0.5), p99: q(0.99), perRun: runs.map(rps) };
};

// ---------------------------------------------------------------------------------------------
// Where the time goes in a tools/call: a CPU profile of the server thread under the 2025-era call load.

const { result: profiled, summary: prof } = await profileWhile(
  () => load(mcpUrl, forms.call2025, 3, 0),
  root,
);

// ---------------------------------------------------------------------------------------------
// Phases of one tools/call, in process and sequential (no sockets, no load thread): the kernel alone,
// the whole app (Hono, auth, SDK, kernel), and the echo route, each as microseconds per call.

async function perCall(n: number, once: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(500, n); i++) await once();
  const started = performance.now();
  for (let i = 0; i < n; i++) await once();
  return ((performance.now() - started) * 1000) / n;
}
const noopTool = registry.get(NOOP);
if (noopTool === undefined) throw new Error('the fixture tool is not registered');
const silent = createLogger('silent');
const kernelCtx = {
  db: db.db,
  kv,
  agent: 'ceo',
  requestId: 'bench',
  now: () => new Date(),
  env: {},
  log: silent,
  progress: async () => {},
  waitUntil: () => {},
  jobs: noJobs,
  holds: (tool: string) => ceoGrants.has(tool),
};
const ceoGrants = grants.get('ceo') ?? new Set<string>();
const viaApp = (target: Hono['fetch'], url: string, form: Form) => async () => {
  const res = await target(new Request(url, { method: 'POST', headers: form.headers, body: form.body }));
  await res.text();
};
const PHASE_N = 2000;
const phaseUs = {
  kernel: await perCall(PHASE_N, () =>
    callTool({ tool: noopTool, args: {}, ctx: kernelCtx, grants: ceoGrants }),
  ),
  call2025: await perCall(PHASE_N, viaApp(app.fetch, mcpUrl, forms.call2025)),
  call2026: await perCall(PHASE_N, viaApp(app.fetch, mcpUrl, forms.call2026)),
  list2025: await perCall(PHASE_N, viaApp(app.fetch, mcpUrl, forms.list2025)),
  // The same tool through the plain JSON route: Hono, auth and the kernel, without the MCP SDK.
  plain: await perCall(
    PHASE_N,
    viaApp(app.fetch, `${chambers.url}/v1/tools/${NOOP}`, {
      label: 'plain',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    }),
  ),
  echo: await perCall(PHASE_N, viaApp(echoApp.fetch, `${echo.url}/echo`, echoForm)),
};

// ---------------------------------------------------------------------------------------------
// Report.

const f0 = (n: number) => n.toFixed(0);
const f2 = (n: number) => n.toFixed(2);
const pad = (s: string, n: number) => s.padEnd(n);

console.log(
  `\nLoad: ${CONNECTIONS} connections, ${ROUNDS} rounds × ${SECONDS} s per case (+ warm-up), loopback HTTP, one process`,
);
console.log(
  `(servers on the main thread, autocannon in a worker thread; ${allTools.length + 1} tools registered)\n`,
);
console.log(
  `${pad('case', 50)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'× echo'.padStart(7)}  per run req/s`,
);
const summary = new Map<CaseKey, { rps: number; ratio: number }>();
for (const c of cases) {
  const m = merged(c.key);
  const r = isEcho(c.key) ? [1] : ratios(c.key);
  summary.set(c.key, { rps: m.rps, ratio: median(r) });
  console.log(
    `${pad(c.form.label, 50)} ${f0(m.rps).padStart(7)} ${f2(m.p50).padStart(7)} ${f2(m.p99).padStart(7)} ${(isEcho(c.key) ? '1' : f2(median(r))).padStart(7)}  ${m.perRun.map(f0).join(' / ')}`,
  );
}
const ratioOf = (key: CaseKey) => summary.get(key)?.ratio ?? Number.NaN;
const spread = (key: CaseKey) => {
  const r = ratios(key);
  return `${f2(Math.min(...r))}–${f2(Math.max(...r))}`;
};
console.log(
  `\nratios (median over rounds, each against the runs beside it of the echo with the same response bytes): call/echo ${f2(ratioOf('call2025'))} ` +
    `(rounds ${spread('call2025')}; 2026 form ${f2(ratioOf('call2026'))}), list/echo ${f2(ratioOf('list2025'))} ` +
    `(rounds ${spread('list2025')}; 2026 form ${f2(ratioOf('list2026'))}); goal ≥ 0.50 each`,
);

console.log(
  '\nRound trips per call (sequential; db = statements sent to the database, kv = KV store calls):\n',
);
console.log(
  `${pad('tool', 36)} ${pad('outcome', 9)} ${'db'.padStart(3)} ${'kv'.padStart(3)}  statements, kv calls`,
);
for (const t of trips) {
  const what = [...t.db, ...t.kv.map((k) => `kv.${k}`)].join(', ') || '-';
  console.log(
    `${pad(t.tool, 36)} ${pad(t.outcome, 9)} ${String(t.db.length).padStart(3)} ${String(t.kv.length).padStart(3)}  ${what}`,
  );
}
const row = (tool: string) => trips.find((t) => t.tool === tool);
const reads = ['case_list', 'case_get', 'case_final_text_get'].flatMap((t) => row(t) ?? []);
const writes = ['case_create (new)', 'case_update', 'case_delete'].flatMap((t) => row(t) ?? []);
const readsMet = reads.length === 3 && reads.every((r) => r.db.length <= 1 && r.kv.length === 0);
const writeDbMet = writes.length === 3 && writes.every((w) => w.db.length <= 2);
const writeKvMet = writes.length === 3 && writes.every((w) => w.kv.length <= 1);
console.log(
  `\nGoal "a read in one db round trip": ${readsMet ? 'met' : 'NOT met'} (${reads.map((r) => `${r.tool} ${r.db.length}`).join(', ')})`,
);
console.log(
  `Goal "a write in ≤ 2 db round trips + 1 KV call": db ${writeDbMet ? 'met' : 'NOT met'}, kv ${writeKvMet ? 'met' : 'NOT met'} ` +
    `(${writes.map((w) => `${w.tool} ${w.db.length}+${w.kv.length}`).join(', ')})`,
);
for (const w of writes) {
  const extraDb = w.db.filter((d) => d !== 'insert audit_log');
  const notes: string[] = [];
  if (w.db.includes('insert audit_log')) notes.push('1 db for the audit row (C8)');
  if (extraDb.length > 1) notes.push(`${extraDb.length} db for the work (${extraDb.join(', ')})`);
  const why: Record<string, string> = {
    claim: 'claim: take the in-flight lock',
    compareAndSet: 'compareAndSet: store the result for replay',
    compareAndDelete: 'compareAndDelete: release the lock',
  };
  if (w.kv.length > 1)
    notes.push(`${w.kv.length} kv for idempotency (${w.kv.map((k) => why[k] ?? k).join(', then ')})`);
  if (notes.length > 0) console.log(`  ${w.tool}: ${notes.join('; ')}`);
}
const coldRow = row(`${NOOP} (token's first call)`);
console.log(
  `  auth: ${coldRow?.db.length ?? '?'} db lookup on a token's first call, then cached per token for 60 s (0 db)`,
);

console.log(
  `\nPhases, in process (app.fetch on a Request, no sockets), µs per request, ${PHASE_N} sequential:`,
);
const phaseLine = (label: string, us: number) => console.log(`  ${pad(label, 66)} ${f0(us).padStart(5)}`);
phaseLine('echo route (Hono, parse body, same bytes as tools/list)', phaseUs.echo);
phaseLine('kernel alone (callTool: grant, decode, envelope; no-op tool)', phaseUs.kernel);
phaseLine(`plain JSON route POST /v1/tools/${NOOP} (Hono, auth, kernel)`, phaseUs.plain);
phaseLine('/mcp tools/call no-op, 2025-era (binding fast path)', phaseUs.call2025);
phaseLine('/mcp tools/call no-op, 2026-07-28 (SDK handler)', phaseUs.call2026);
phaseLine('/mcp tools/list, 2025-era (binding fast path)', phaseUs.list2025);
console.log(
  `  → over the plain JSON route, /mcp adds ${f0(phaseUs.call2025 - phaseUs.plain)} µs on the 2025 fast path and ` +
    `${f0(phaseUs.call2026 - phaseUs.plain)} µs through the SDK handler (per-request Server + transport, JSON-RPC validation); Hono + auth + kernel ${f0(phaseUs.plain)} µs, ` +
    `of which the kernel ${f0(phaseUs.kernel)} µs`,
);

console.log(
  `\nProfile of the server thread, ${profiled.requests} tools/calls (2025-era) in 3 s; busy ${f0(prof.busyPercent)}% of wall; % of busy time:`,
);
console.log('  self time by area:');
for (const [k, v] of prof.selfByArea.slice(0, 10)) console.log(`  ${f2(v).padStart(6)}%  ${k}`);
console.log('  on the stack (inclusive) by area:');
for (const [k, v] of prof.onStackByArea.slice(0, 8)) console.log(`  ${f2(v).padStart(6)}%  ${k}`);
console.log('  hottest functions (self):');
for (const [k, v] of prof.selfByFunction.slice(0, 8)) console.log(`  ${f2(v).padStart(6)}%  ${k}`);

await Promise.all([chambers.close(), echo.close()]);
await Promise.all([db.close(), kvDb.close()]);
const queueKeys = printQueueBench(await benchQueue());
const search = await runSearchBench();

console.log(`\nbench took ${f0((performance.now() - benchStarted) / 1000)} s`);
console.log(
  `bench: call_ratio=${f2(ratioOf('call2025'))} list_ratio=${f2(ratioOf('list2025'))} ` +
    Object.entries({ ...queueKeys, ...search })
      .map(([k, v]) => `${k}=${v}`)
      .join(' '),
);
