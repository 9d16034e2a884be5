/**
 * Queue throughput for `npm run bench`: drains 5,000 no-op jobs with one drain and with four concurrent
 * drains (each one lane: claim one job, run, settle), on the local PostgreSQL (a scratch database,
 * dropped after) when it is reachable and on PGlite in memory; counts every run, so a job that ran twice
 * (or not at all) is reported. Also runnable alone: `node bench/queue.ts` (BENCH_QUEUE_JOBS,
 * BENCH_QUEUE_ROUNDS; the PostgreSQL server is TEST_DATABASE_URL's, as the tests use).
 */
import { sql } from 'drizzle-orm';
import { migrateDb } from '../src/db/migrate.ts';
import { openPglite } from '../src/db/pglite.ts';
import type { DbHandle } from '../src/db/types.ts';
import { drainJobs } from '../src/jobs/drain.ts';
import type { JobHandler } from '../src/jobs/queue.ts';
import { createLogger } from '../src/log.ts';
import { scratchPostgres } from './scratch.ts';

const JOBS = Number(process.env.BENCH_QUEUE_JOBS ?? 5000);
const KIND = 'bench_noop';

export interface QueueRun {
  db: 'postgres' | 'pglite';
  drains: number;
  jobs: number;
  ms: number;
  jobsPerSecond: number;
  /** Jobs that ran more than once, or never; both must be 0. */
  duplicates: number;
  missing: number;
}

const rowsOf = (r: unknown) => (r as { rows: Record<string, unknown>[] }).rows;

async function runOnce(handle: DbHandle, label: QueueRun['db'], drains: number): Promise<QueueRun> {
  const db = handle.db;
  await db.execute(sql`delete from jobs where kind = ${KIND}`);
  await db.execute(sql`
    insert into jobs (id, kind, dedupe_key, payload)
    select gen_random_uuid(), ${KIND}, 'n' || g, '{}'::jsonb from generate_series(1, ${JOBS}) g`);
  // Statistics as autovacuum would keep them: a bulk insert the planner has never seen gets a sort plan.
  await db.execute(sql`analyze jobs`);
  const runs = new Map<string, number>();
  const noop: JobHandler = async (job) => {
    runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
  };
  const log = createLogger('silent');
  const started = performance.now();
  const reports = await Promise.all(
    Array.from({ length: drains }, (_, i) =>
      drainJobs({
        db,
        handlers: { [KIND]: noop },
        maxJobs: JOBS,
        budgetMs: 600_000,
        leaseMs: 600_000,
        workerId: `bench-${i}`,
        concurrency: 1,
        log,
        now: () => new Date(),
      }),
    ),
  );
  const ms = performance.now() - started;
  const claimed = reports.reduce((n, r) => n + r.claimed, 0);
  const settled = rowsOf(
    await db.execute(
      sql`select count(*)::int as n from jobs where kind = ${KIND} and state = 'succeeded' and attempt = 1`,
    ),
  )[0]?.n;
  const duplicates = [...runs.values()].filter((n) => n > 1).length + Math.max(0, claimed - JOBS);
  const missing = JOBS - Number(settled);
  return { db: label, drains, jobs: JOBS, ms, jobsPerSecond: (JOBS * 1000) / ms, duplicates, missing };
}

const ROUNDS = Number(process.env.BENCH_QUEUE_ROUNDS ?? 3);

/**
 * 1 and 4 drains alternately, ROUNDS times each, on one database; the median run of each. Other processes
 * on the machine move single runs a lot, and alternating keeps a slow spell from landing on one side.
 */
async function rounds(handle: DbHandle, label: QueueRun['db']): Promise<QueueRun[]> {
  await runOnce(handle, label, 1); // warm-up: plans, caches, connections
  const runs: QueueRun[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    for (const drains of i % 2 === 0 ? [1, 4] : [4, 1]) runs.push(await runOnce(handle, label, drains));
  }
  return [1, 4].map((drains) => {
    const these = runs.filter((r) => r.drains === drains).sort((a, b) => a.jobsPerSecond - b.jobsPerSecond);
    const median = these[Math.floor(these.length / 2)] as QueueRun;
    // Correctness over every run, not only the median one.
    return {
      ...median,
      duplicates: these.reduce((n, r) => n + r.duplicates, 0),
      missing: these.reduce((n, r) => n + r.missing, 0),
    };
  });
}

/** Both databases (PostgreSQL only when reachable), 1 and 4 drains on each. */
export async function benchQueue(): Promise<QueueRun[]> {
  const results: QueueRun[] = [];
  const postgres = await scratchPostgres();
  if (postgres !== null) {
    try {
      results.push(...(await rounds(postgres.handle, 'postgres')));
    } finally {
      await postgres.drop();
    }
  }
  const lite = await openPglite();
  try {
    await migrateDb(lite);
    results.push(...(await rounds(lite, 'pglite')));
  } finally {
    await lite.close();
  }
  return results;
}

export function printQueueBench(results: QueueRun[]): Record<string, string> {
  console.log(
    `\nQueue: drain ${JOBS} no-op jobs (claim one per statement with SKIP LOCKED, settle by id+attempt); ` +
      `median of ${ROUNDS} alternating rounds; "ran twice" and "never ran" count every round`,
  );
  const keys: Record<string, string> = {};
  for (const db of ['postgres', 'pglite'] as const) {
    const one = results.find((r) => r.db === db && r.drains === 1);
    const four = results.find((r) => r.db === db && r.drains === 4);
    if (one === undefined || four === undefined) {
      console.log(`  ${db}: not run (unreachable)`);
      continue;
    }
    for (const r of [one, four]) {
      console.log(
        `  ${db.padEnd(8)} ${r.drains} drain(s): ${r.jobsPerSecond.toFixed(0).padStart(6)} jobs/s ` +
          `(${(r.ms / 1000).toFixed(2)} s); ran twice: ${r.duplicates}, never ran: ${r.missing}`,
      );
    }
    const ratio = four.jobsPerSecond / one.jobsPerSecond;
    console.log(`  ${db.padEnd(8)} 4 drains / 1 drain: ${ratio.toFixed(2)}×`);
    const short = db === 'postgres' ? 'pg' : 'lite';
    keys[`queue_${short}_1`] = one.jobsPerSecond.toFixed(0);
    keys[`queue_${short}_4`] = four.jobsPerSecond.toFixed(0);
    keys[`queue_${short}_ratio`] = ratio.toFixed(2);
  }
  keys.queue_ran_twice = String(results.reduce((n, r) => n + r.duplicates, 0));
  keys.queue_never_ran = String(results.reduce((n, r) => n + r.missing, 0));
  return keys;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const keys = printQueueBench(await benchQueue());
  console.log(
    `queue: ${Object.entries(keys)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
}
