/**
 * `npm run soak [-- --minutes N | --seconds N] [--stack pglite|postgres] [--rate R]`: `npm start` as its own
 * process under a mixed workload from five agents at a fixed request rate (open loop: a request is sent every
 * 1/R s whether or not the earlier ones answered), for N minutes (default 10).
 *
 * - pglite (default): the embedded database in a temporary DATA_DIR, as a new user runs it.
 * - postgres: a fresh database on the local PostgreSQL and the key-value store on the local Redis behind the
 *   Upstash REST bridge (scripts/dev/upstash_bridge.ts); both removed at the end.
 *
 * Tool classes: read, search, write, upload, extraction, governance (hai). Prints p50/p99 per class, the
 * errors by code (any error fails the run; `in_progress`, the same call still running, is counted apart as a
 * conflict: every 97th request is a deliberate duplicate upload, and two drains may overlap), the
 * server's RSS at the start of the measured period, at its end and its peak, and exits 1 on errors or when
 * the server could not keep up (requests still unanswered piling past the in-flight cap).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startUpstashBridge, type UpstashBridge } from '../scripts/dev/upstash_bridge.ts';
import type { Envelope } from '../src/contract/envelope.ts';
import { serviceUrls } from '../test/harness/services.ts';
import { firstStartTokens, type SpawnedServer, spawnServer } from '../test/harness/spawned.ts';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}
const seconds = arg('seconds') ? Number(arg('seconds')) : Number(arg('minutes') ?? 10) * 60;
const stack = arg('stack') ?? 'pglite';
const rate = Number(arg('rate') ?? 20);
if (!(seconds > 0) || !(rate > 0) || !['pglite', 'postgres'].includes(stack)) {
  console.error('usage: npm run soak -- [--minutes N | --seconds N] [--stack pglite|postgres] [--rate R]');
  process.exit(2);
}
const MAX_IN_FLIGHT = Math.max(50, rate * 5);

// ---- the stack -------------------------------------------------------------------------------------------
const run = Math.random().toString(36).slice(2, 8);
const dataDir = await mkdtemp(join(tmpdir(), 'chambers-soak-'));
let bridge: UpstashBridge | undefined;
let dbName: string | undefined;
const admin = async (sql: string) => {
  const c = new pg.Client({ connectionString: serviceUrls.postgres });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
};
const env: Record<string, string> = { OWNER_GATE: 'ack', LOG_LEVEL: 'warn' };
if (stack === 'postgres') {
  dbName = `chambers_soak_${run}`;
  const u = new URL(serviceUrls.postgres);
  u.pathname = `/${dbName}`;
  env.DATABASE_URL = u.toString();
  bridge = await startUpstashBridge({ keyPrefix: `soak:${run}:` });
  env.UPSTASH_REDIS_REST_URL = bridge.url;
  env.UPSTASH_REDIS_REST_TOKEN = bridge.token;
}
const server: SpawnedServer = await spawnServer({ dataDir, env });
const tokens = firstStartTokens(server.output());
const cleanup = async () => {
  if (server.child.exitCode === null) await server.stop();
  await bridge?.clear().catch(() => 0);
  await bridge?.close();
  if (dbName !== undefined) await admin(`drop database if exists ${dbName} with (force)`);
  await rm(dataDir, { recursive: true, force: true });
};

type Agent = 'ceo' | 'analyst' | 'researcher' | 'writer' | 'qa';
const call = async (agent: Agent, tool: string, args: unknown): Promise<Envelope> =>
  server.call(tokens[agent] as string, tool, args);
const must = async <T>(agent: Agent, tool: string, args: unknown): Promise<T> => {
  const env = await call(agent, tool, args);
  if (!env.ok) throw new Error(`setup: ${tool} failed: ${JSON.stringify(env.error)}`);
  return env.data as T;
};

async function rss(): Promise<number> {
  const status = await readFile(`/proc/${server.child.pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

const appeal = (n: number) =>
  `כתב ערר ${n}\n\nהעוררת טוענת כי היטל ההשבחה חושב שלא כדין לפי תכנית תמ"א 38 וסעיף 196א לחוק התכנון והבניה.\n` +
  `לטענת העוררת, השמאי המכריע התעלם מעסקאות ההשוואה. המשיבה טוענת כי ההחלטה סבירה. ${crypto.randomUUID()}`;

// ---- setup: cases with documents, a decision in the internal corpus, a mission with a session -------------
const cases: string[] = [];
const documents: string[] = [];
for (let i = 0; i < 3; i++) {
  const c = await must<{ case: { id: string } }>('ceo', 'case_create', {
    case_number: `ערר ${run}-${i}`,
    title: `סוק ${i}`,
  });
  cases.push(c.case.id);
  for (let d = 0; d < 2; d++) {
    const up = await must<{ document: { id: string } }>('analyst', 'document_upload', {
      corpus: 'case',
      case_id: c.case.id,
      text: appeal(i * 10 + d),
    });
    documents.push(up.document.id);
  }
}
await must('researcher', 'internal_decision_add', { text: appeal(99), number: `ערר ${run}/24` });
const project = `soak-${run}`;
await must('ceo', 'hai_bind_project', {
  project_id: project,
  device_id: 'soak-1',
  mount_path: `/srv/${project}`,
  owner_ack: true,
  reason: 'soak',
});
const mission = await must<{ mission: { id: string } }>('ceo', 'hai_open_mission', {
  name: `soak-${run}`,
  title: 'Soak mission',
  project_id: project,
  goal: 'Keep the server busy',
  in_scope: ['analysis'],
  out_of_scope: ['drafting'],
  criteria: [{ id: 'c1', description: 'Done', verification: 'Checked' }],
  expires_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
  max_sessions: 4,
});
const lease = await must<{ lease: { lease_id: string } }>('analyst', 'hai_authorize_session', {
  mission_id: mission.mission.id,
  contract_version: 1,
  device_id: 'soak-1',
  ttl_seconds: 86_400,
});

// ---- the workload --------------------------------------------------------------------------------------
type Op = { cls: string; agent: Agent; tool: string; args: () => unknown; weight: number };
let seq = 0;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)] as T;
const readers: Agent[] = ['analyst', 'researcher', 'writer', 'qa'];
const ops: Op[] = [
  { cls: 'read', agent: 'ceo', tool: 'case_list', args: () => ({}), weight: 4 },
  ...readers.map(
    (agent): Op => ({
      cls: 'read',
      agent,
      tool: 'case_get',
      args: () => ({ case_id: pick(cases) }),
      weight: 1.5,
    }),
  ),
  { cls: 'read', agent: 'qa', tool: 'document_list', args: () => ({ case_id: pick(cases) }), weight: 4 },
  {
    cls: 'read',
    agent: 'writer',
    tool: 'document_text_get',
    args: () => ({ document_id: pick(documents) }),
    weight: 4,
  },
  { cls: 'read', agent: 'qa', tool: 'claim_list', args: () => ({ case_id: pick(cases) }), weight: 2 },
  { cls: 'read', agent: 'writer', tool: 'reference_list', args: () => ({ case_id: pick(cases) }), weight: 2 },
  {
    cls: 'search',
    agent: 'analyst',
    tool: 'search_case',
    args: () => ({ case_id: pick(cases), query: pick(['היטל השבחה', 'שמאי מכריע', 'עסקאות השוואה']) }),
    weight: 6,
  },
  {
    cls: 'search',
    agent: 'researcher',
    tool: 'search_internal',
    args: () => ({ query: 'היטל השבחה' }),
    weight: 3,
  },
  {
    cls: 'write',
    agent: 'analyst',
    tool: 'case_update',
    args: () => ({ case_id: pick(cases), notes: `הערה ${++seq}` }),
    weight: 3,
  },
  {
    cls: 'write',
    agent: 'ceo',
    tool: 'case_create',
    args: () => ({ case_number: `ערר ${run}-n${++seq}`, title: 'חדש' }),
    weight: 1,
  },
  {
    cls: 'upload',
    agent: 'analyst',
    tool: 'document_upload',
    args: () => ({ corpus: 'case', case_id: pick(cases), text: appeal(++seq) }),
    weight: 2,
  },
  { cls: 'extraction', agent: 'ceo', tool: 'extraction_status', args: () => ({}), weight: 2 },
  { cls: 'extraction', agent: 'analyst', tool: 'extraction_run', args: () => ({ max_jobs: 5 }), weight: 1 },
  {
    cls: 'governance',
    agent: 'analyst',
    tool: 'hai_status',
    args: () => ({ project_id: project }),
    weight: 2,
  },
  {
    cls: 'governance',
    agent: 'analyst',
    tool: 'hai_check_activity',
    args: () => ({ lease_id: lease.lease.lease_id, activity: `analysis:step-${++seq}` }),
    weight: 2,
  },
  { cls: 'governance', agent: 'ceo', tool: 'hai_health', args: () => ({}), weight: 1 },
];
const totalWeight = ops.reduce((n, o) => n + o.weight, 0);
const chooseOp = (): Op => {
  let r = Math.random() * totalWeight;
  for (const o of ops) {
    r -= o.weight;
    if (r < 0) return o;
  }
  return ops[0] as Op;
};

const latencies = new Map<string, number[]>();
/** Every answer's time since the last minute's report: the minute's p99 shows a slowdown as it builds up. */
let minute: number[] = [];
const errors = new Map<string, number>();
const samples: string[] = [];
const conflicts = new Map<string, number>();
let sent = 0;
let inFlight = 0;
let overflow = 0;
let transport = 0;

async function fire(op: Op, args: unknown): Promise<void> {
  inFlight++;
  const started = performance.now();
  try {
    const env = await call(op.agent, op.tool, args);
    const ms = performance.now() - started;
    if (!latencies.has(op.cls)) latencies.set(op.cls, []);
    latencies.get(op.cls)?.push(ms);
    minute.push(ms);
    if (!env.ok) {
      // in_progress: the same agent's identical call still running (the deliberate duplicate uploads, and two
      // extraction_run drains overlapping); by design a retryable conflict, not a failure.
      if (env.error.code === 'in_progress') {
        conflicts.set(op.tool, (conflicts.get(op.tool) ?? 0) + 1);
      } else {
        const key = `${op.tool}:${env.error.code}`;
        errors.set(key, (errors.get(key) ?? 0) + 1);
        if (samples.length < 5) samples.push(`${key} ${env.error.message}`);
      }
    }
  } catch (e) {
    transport++;
    if (samples.length < 5) samples.push(`${op.tool}: ${e instanceof Error ? e.message : e}`);
  } finally {
    inFlight--;
  }
}

// Warm up (first compiles, caches), then measure from here.
for (let i = 0; i < 30; i++) {
  const op = chooseOp();
  await fire(op, op.args());
}
latencies.clear();
minute = [];
errors.clear();
samples.length = 0;
conflicts.clear();
transport = 0;
const rssStart = await rss();
let rssPeak = rssStart;
const rssTimer = setInterval(async () => {
  rssPeak = Math.max(rssPeak, await rss());
}, 2_000);

console.log(
  `soak: ${stack}, ${seconds} s at ${rate} req/s from 5 agents (${server.url}); RSS at start ${rssStart.toFixed(0)} MiB`,
);
const started = performance.now();
const pending = new Set<Promise<void>>();
const interval = 1000 / rate;
let next = started;
let lastReport = started;
while (performance.now() - started < seconds * 1000) {
  const now = performance.now();
  if (now < next) {
    await new Promise((r) => setTimeout(r, Math.min(next - now, 50)));
    continue;
  }
  next += interval;
  if (inFlight >= MAX_IN_FLIGHT) {
    overflow++;
    continue;
  }
  sent++;
  let p: Promise<void>;
  if (sent % 97 === 0) {
    // A deliberate conflict: the same upload twice at once (one may answer in_progress).
    const op = ops.find((o) => o.tool === 'document_upload') as Op;
    const args = op.args();
    p = Promise.all([fire(op, args), fire(op, args)]).then(() => {});
  } else {
    const op = chooseOp();
    p = fire(op, op.args());
  }
  pending.add(p);
  void p.finally(() => pending.delete(p));
  if (now - lastReport > 60_000) {
    lastReport = now;
    const done = [...latencies.values()].reduce((n, l) => n + l.length, 0);
    const sorted = minute.sort((a, b) => a - b);
    const p99 = sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? Number.NaN;
    minute = [];
    console.log(
      `  ${((now - started) / 1000).toFixed(0)} s: ${done} answered, ${[...errors.values()].reduce((a, b) => a + b, 0)} errors, p99 of the minute ${p99.toFixed(1)} ms, RSS ${(await rss()).toFixed(0)} MiB`,
    );
  }
}
await Promise.all(pending);
clearInterval(rssTimer);
const elapsed = (performance.now() - started) / 1000;
const rssEnd = await rss();
rssPeak = Math.max(rssPeak, rssEnd);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
console.log(
  `\n${'class'.padEnd(12)}${'calls'.padStart(8)}${'p50 ms'.padStart(10)}${'p99 ms'.padStart(10)}${'max ms'.padStart(10)}`,
);
let answered = 0;
for (const cls of ['read', 'search', 'write', 'upload', 'extraction', 'governance']) {
  const l = latencies.get(cls) ?? [];
  answered += l.length;
  console.log(
    `${cls.padEnd(12)}${String(l.length).padStart(8)}${pct(l, 50).toFixed(1).padStart(10)}${pct(l, 99).toFixed(1).padStart(10)}${Math.max(
      0,
      ...l,
    )
      .toFixed(1)
      .padStart(10)}`,
  );
}
const errorCount = [...errors.values()].reduce((a, b) => a + b, 0) + transport;
const conflictCount = [...conflicts.values()].reduce((a, b) => a + b, 0);
console.log(
  `\n${answered} answered in ${elapsed.toFixed(0)} s (${(answered / elapsed).toFixed(1)} req/s); ` +
    `errors ${errorCount}${errors.size > 0 ? ` (${[...errors].map(([k, n]) => `${k}×${n}`).join(', ')})` : ''}; ` +
    `conflicts (in_progress) ${conflictCount}${conflicts.size > 0 ? ` (${[...conflicts].map(([k, n]) => `${k}×${n}`).join(', ')})` : ''}; not sent (in-flight cap ${MAX_IN_FLIGHT}) ${overflow}`,
);
for (const s of samples) console.log(`  e.g. ${s}`);
console.log(
  `RSS: start ${rssStart.toFixed(0)} MiB, end ${rssEnd.toFixed(0)} MiB, peak ${rssPeak.toFixed(0)} MiB`,
);
console.log(
  `soak: stack=${stack} seconds=${seconds} answered=${answered} errors=${errorCount} conflicts=${conflictCount} rss_start_mib=${rssStart.toFixed(0)} rss_end_mib=${rssEnd.toFixed(0)}`,
);
await cleanup();
process.exit(errorCount > 0 || overflow > 0 ? 1 : 0);
