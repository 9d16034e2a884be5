/**
 * The durable job queue over the `jobs` table (DESIGN.md §1 src/jobs/).
 *
 * - enqueue: `INSERT … ON CONFLICT (kind, dedupe_key) DO NOTHING`, inside the caller's transaction, so the
 *   job commits (or rolls back) with the row that needs the work.
 * - claim: one statement, `FOR UPDATE SKIP LOCKED`, increments `attempt` and sets a lease. A running job
 *   whose lease lapsed (its worker died) is put back to pending by the next drain, and runs again.
 * - settle: by (id, attempt) and only while the row is still `running` at that attempt, so a stale worker
 *   can never complete, fail or retry a newer attempt.
 * - retry with exponential backoff (capped) up to `max_attempts`, then `dead` keeping the last error.
 *
 * Handlers must make their effects idempotent: a job may run more than once (a lapsed lease, a crash
 * between the effect and the settle). The queue promises that two workers never hold the same attempt.
 *
 * Time is "the later of the database clock and the caller's clock": the database clock keeps app servers
 * with skewed clocks honest, and the caller's `now()` lets tests move time forward.
 */
import { sql } from 'drizzle-orm';
import { jobs } from '../db/schema/jobs.ts';
import { type Db, type DbOrTx, rowsOf } from '../db/types.ts';
import type { Logger } from '../log.ts';

export interface EnqueueInput {
  kind: string;
  dedupeKey: string;
  payload: Record<string, unknown>;
  subject?: string;
  maxAttempts?: number;
  runAt?: Date;
}

export interface JobContext {
  db: Db;
  log: Logger;
  now(): Date;
  /** Aborted when the job's lease lapses (another worker may take it over) or the drain is stopped. */
  signal: AbortSignal;
}

/** A job as its handler sees it. */
export interface JobRef {
  id: string;
  kind: string;
  attempt: number;
  maxAttempts: number;
  payload: Record<string, unknown>;
  subject: string | null;
}

export type JobHandler = ((job: JobRef, jctx: JobContext) => Promise<void>) & {
  /**
   * Runs once after a job of this kind went `dead` by any path (a permanent error, the last attempt failed,
   * or the last attempt's lease lapsed), with the error the job keeps: the place to mark the subject failed
   * so it never waits forever. Best effort: a failure is logged, the job stays dead.
   */
  onDead?: (job: JobRef & { error: string }, jctx: Omit<JobContext, 'signal'>) => Promise<void>;
};

/** Thrown by a handler for a failure no retry can fix (a broken file): the job goes `dead` at once. */
export class PermanentJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentJobError';
  }
}

export interface Backoff {
  /** Delay after the first failed attempt; doubles with each further attempt. */
  baseMs: number;
  /** The longest delay between attempts. */
  capMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 2_000, capMs: 10 * 60_000 };
export const DEFAULT_MAX_ATTEMPTS = 5;
const MAX_ERROR_CHARS = 2_000;

/** The delay before the attempt after `attempt` failed: base · 2^(attempt−1), capped. */
export function backoffMs(attempt: number, backoff: Backoff = DEFAULT_BACKOFF): number {
  return Math.min(backoff.capMs, backoff.baseMs * 2 ** Math.max(0, attempt - 1));
}

const clock = (now: Date) => sql`greatest(now(), ${now.toISOString()}::timestamptz)`;
const millis = (ms: number) => sql`(${ms}::float8 * interval '1 millisecond')`;

/**
 * Enqueues a job unless one with the same (kind, dedupe key) exists; returns the job's id either way.
 * Pass the caller's transaction to commit the job atomically with the row that needs the work.
 */
export async function enqueueJob(db: DbOrTx, job: EnqueueInput): Promise<{ id: string; created: boolean }> {
  const maxAttempts = job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new Error('maxAttempts must be ≥ 1');
  const inserted = await db
    .insert(jobs)
    .values({
      id: crypto.randomUUID(),
      kind: job.kind,
      dedupeKey: job.dedupeKey,
      subject: job.subject ?? null,
      payload: job.payload,
      maxAttempts,
      ...(job.runAt === undefined ? {} : { runAt: job.runAt }),
    })
    .onConflictDoNothing({ target: [jobs.kind, jobs.dedupeKey] })
    .returning({ id: jobs.id });
  const first = inserted[0];
  if (first !== undefined) return { id: first.id, created: true };
  const existing = await db.execute(
    sql`select id from jobs where kind = ${job.kind} and dedupe_key = ${job.dedupeKey}`,
  );
  const id = rowsOf(existing)[0]?.id;
  if (typeof id !== 'string') throw new Error('enqueueJob: conflicting job vanished');
  return { id, created: false };
}

export interface ClaimOptions {
  kinds: readonly string[];
  limit: number;
  leaseMs: number;
  workerId: string;
  now: Date;
}

/**
 * Claims up to `limit` due pending jobs of the given kinds in one statement (`FOR UPDATE SKIP LOCKED`, so
 * concurrent claims never take the same row): each gets `attempt + 1`, this worker's id and a lease.
 */
export async function claimJobs(db: Db, o: ClaimOptions): Promise<JobRef[]> {
  if (o.kinds.length === 0 || o.limit < 1) return [];
  const now = clock(o.now);
  const kinds = sql.join(
    o.kinds.map((k) => sql`${k}`),
    sql`, `,
  );
  const result = await db.execute(sql`
    with due as (
      select id from jobs
      where state = 'pending' and run_at <= ${now} and kind in (${kinds})
      order by run_at, seq
      limit ${o.limit}
      for update skip locked
    )
    update jobs j set state = 'running', attempt = j.attempt + 1, lease_until = ${now} + ${millis(o.leaseMs)},
      locked_by = ${o.workerId}, updated_at = ${now}
    from due where j.id = due.id
    returning j.id, j.kind, j.attempt, j.max_attempts, j.payload, j.subject`);
  return rowsOf(result).map(jobOfRow);
}

/**
 * Running jobs whose lease lapsed (their worker died or hung) count as a failed attempt: back to `pending`
 * at once while attempts remain, else `dead`. Their old worker can no longer settle them (the row is not
 * `running` at that attempt any more); the next claim runs them as a new attempt.
 */
export async function recoverLapsedJobs(
  db: Db,
  kinds: readonly string[],
  now: Date,
): Promise<{ requeued: number; dead: number }> {
  const { requeued, dead } = await recoverLapsed(db, kinds, now);
  return { requeued, dead: dead.length };
}

/** recoverLapsedJobs with the jobs that went dead, for their kind's onDead hook. */
async function recoverLapsed(
  db: Db,
  kinds: readonly string[],
  now: Date,
): Promise<{ requeued: number; dead: (JobRef & { error: string })[] }> {
  if (kinds.length === 0) return { requeued: 0, dead: [] };
  const t = clock(now);
  const list = sql.join(
    kinds.map((k) => sql`${k}`),
    sql`, `,
  );
  const lapsed = sql`(attempt >= max_attempts)`;
  const result = await db.execute(sql`
    update jobs set
      state = case when ${lapsed} then 'dead' else 'pending' end,
      run_at = ${t},
      finished_at = case when ${lapsed} then ${t} else null end,
      last_error = 'attempt ' || attempt || ': lease lapsed (worker lost or too slow)'
        || coalesce('; before: ' || last_error, ''),
      lease_until = null, locked_by = null, updated_at = ${t}
    where state = 'running' and lease_until < ${t} and kind in (${list})
    returning id, kind, attempt, max_attempts, payload, subject, state, last_error`);
  const rows = rowsOf(result);
  return {
    requeued: rows.filter((r) => r.state === 'pending').length,
    dead: rows
      .filter((r) => r.state === 'dead')
      .map((r) => ({ ...jobOfRow(r), error: String(r.last_error ?? 'lease lapsed') })),
  };
}

function jobOfRow(r: Record<string, unknown>): JobRef {
  return {
    id: String(r.id),
    kind: String(r.kind),
    attempt: Number(r.attempt),
    maxAttempts: Number(r.max_attempts),
    payload: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>,
    subject: r.subject === null || r.subject === undefined ? null : String(r.subject),
  };
}

export interface SettleRef {
  id: string;
  attempt: number;
  now: Date;
}

/** Marks the attempt succeeded; false when it is no longer this attempt's to settle (stale worker). */
export async function completeJob(db: Db, ref: SettleRef): Promise<boolean> {
  const t = clock(ref.now);
  const result = await db.execute(sql`
    update jobs set state = 'succeeded', lease_until = null, locked_by = null, updated_at = ${t}, finished_at = ${t}
    where id = ${ref.id} and attempt = ${ref.attempt} and state = 'running'
    returning id`);
  return rowsOf(result).length === 1;
}

/**
 * Records a failed attempt: back to `pending` after the backoff while attempts remain, else (or when
 * `permanent`) `dead`. Returns the new state, or null when the attempt is no longer this worker's.
 */
export async function failJob(
  db: Db,
  ref: SettleRef & { error: string; permanent?: boolean; backoff?: Backoff },
): Promise<'pending' | 'dead' | null> {
  // The row is settled only at this attempt, so the delay after it is known here.
  const delayMs = backoffMs(ref.attempt, ref.backoff);
  const t = clock(ref.now);
  const permanent = ref.permanent === true;
  const error = ref.error.length > MAX_ERROR_CHARS ? `${ref.error.slice(0, MAX_ERROR_CHARS)}…` : ref.error;
  const isDead = sql`(${permanent}::boolean or attempt >= max_attempts)`;
  const result = await db.execute(sql`
    update jobs set
      state = case when ${isDead} then 'dead' else 'pending' end,
      run_at = case when ${isDead} then run_at
        else ${t} + ${millis(delayMs)} end,
      finished_at = case when ${isDead} then ${t} else null end,
      last_error = ${error}, lease_until = null, locked_by = null, updated_at = ${t}
    where id = ${ref.id} and attempt = ${ref.attempt} and state = 'running'
    returning state`);
  const state = rowsOf(result)[0]?.state;
  return state === 'pending' || state === 'dead' ? state : null;
}

/** Jobs of these kinds that a drain could claim now. */
export async function countDueJobs(db: Db, kinds: readonly string[], now: Date): Promise<number> {
  if (kinds.length === 0) return 0;
  const t = clock(now);
  const list = sql.join(
    kinds.map((k) => sql`${k}`),
    sql`, `,
  );
  const result = await db.execute(sql`
    select count(*)::int as n from jobs
    where kind in (${list})
      and ((state = 'pending' and run_at <= ${t}) or (state = 'running' and lease_until < ${t}))`);
  return Number(rowsOf(result)[0]?.n ?? 0);
}

export interface DrainOptions {
  db: Db;
  handlers: Readonly<Record<string, JobHandler>>;
  /** At most this many jobs are claimed (default DRAIN_DEFAULTS.maxJobs, as every default below). */
  maxJobs?: number | undefined;
  /** No job is claimed after this many ms; jobs already running finish (their lease covers them). */
  budgetMs?: number | undefined;
  /** How long a claimed job is this worker's; past it another worker may run the job again. */
  leaseMs?: number | undefined;
  workerId: string;
  /** Jobs run side by side (each lane claims one job at a time). */
  concurrency?: number | undefined;
  log: Logger;
  /** The clock (default the system clock); tests move it. */
  now?: (() => Date) | undefined;
  backoff?: Backoff;
  /** Stops claiming when aborted (shutdown); running jobs see it through their own signal. */
  signal?: AbortSignal;
}

export interface DrainError {
  id: string;
  kind: string;
  attempt: number;
  error: string;
  /** pending: will be retried; dead: no retry; stale: the attempt was no longer ours to settle. */
  outcome: 'pending' | 'dead' | 'stale';
}

export interface DrainReport {
  claimed: number;
  succeeded: number;
  retried: number;
  dead: number;
  /** Jobs whose lease had lapsed (worker lost), put back to run again before this drain claimed. */
  recovered: number;
  /** Attempts whose settle was refused because the job had moved on (lease lapsed and re-claimed). */
  stale: number;
  errors: DrainError[];
  ms: number;
  /** Jobs of the handled kinds still claimable when the drain ended. */
  remaining: number;
}

const errorText = (e: unknown) => (e instanceof Error ? e.message || e.name : String(e));
const MAX_REPORTED_ERRORS = 20;

/** A report of a drain that did nothing (the start of every report). */
export const emptyDrainReport = (): DrainReport => ({
  claimed: 0,
  succeeded: 0,
  retried: 0,
  dead: 0,
  recovered: 0,
  stale: 0,
  errors: [],
  ms: 0,
  remaining: 0,
});

/** Drains one bounded batch: at most `maxJobs` jobs, claimed within `budgetMs`, `concurrency` at a time. */
export async function drainJobs(options: DrainOptions): Promise<DrainReport> {
  const o = {
    ...options,
    maxJobs: options.maxJobs ?? DRAIN_DEFAULTS.maxJobs,
    budgetMs: options.budgetMs ?? DRAIN_DEFAULTS.budgetMs,
    leaseMs: options.leaseMs ?? DRAIN_DEFAULTS.leaseMs,
    concurrency: options.concurrency ?? DRAIN_DEFAULTS.concurrency,
    now: options.now ?? (() => new Date()),
  };
  const started = Date.now();
  const kinds = Object.keys(o.handlers);
  const report = emptyDrainReport();
  const noteError = (e: DrainError) => {
    if (report.errors.length < MAX_REPORTED_ERRORS) report.errors.push(e);
  };
  const buried = async (job: JobRef, error: string) => {
    const hook = o.handlers[job.kind]?.onDead;
    if (hook === undefined) return;
    try {
      await hook({ ...job, error }, { db: o.db, log: o.log, now: o.now });
    } catch (e) {
      o.log.error('onDead hook failed', { job: job.id, kind: job.kind, error: errorText(e) });
    }
  };
  const recovered = await recoverLapsed(o.db, kinds, o.now());
  report.dead += recovered.dead.length;
  report.recovered = recovered.requeued;
  for (const job of recovered.dead) await buried(job, job.error);
  let reserved = 0;
  const lane = async () => {
    while (reserved < o.maxJobs && Date.now() - started < o.budgetMs && o.signal?.aborted !== true) {
      reserved++;
      const [job] = await claimJobs(o.db, {
        kinds,
        limit: 1,
        leaseMs: o.leaseMs,
        workerId: o.workerId,
        now: o.now(),
      });
      if (job === undefined) {
        reserved--;
        return;
      }
      report.claimed++;
      await runOne(job);
    }
  };
  const runOne = async (job: JobRef) => {
    const handler = o.handlers[job.kind];
    const controller = new AbortController();
    const lease = setTimeout(() => controller.abort(new Error('lease lapsed')), o.leaseMs);
    const onStop = () => controller.abort(new Error('drain stopped'));
    o.signal?.addEventListener('abort', onStop, { once: true });
    const ref = { id: job.id, attempt: job.attempt };
    try {
      if (handler === undefined) throw new PermanentJobError(`no handler for job kind "${job.kind}"`);
      await handler(job, { db: o.db, log: o.log, now: o.now, signal: controller.signal });
      if (await completeJob(o.db, { ...ref, now: o.now() })) {
        report.succeeded++;
      } else {
        report.stale++;
        o.log.warn('job settle refused: attempt is stale', {
          job: job.id,
          kind: job.kind,
          attempt: job.attempt,
        });
      }
    } catch (e) {
      const error = errorText(e);
      const outcome = await failJob(o.db, {
        ...ref,
        now: o.now(),
        error,
        permanent: e instanceof PermanentJobError,
        ...(o.backoff === undefined ? {} : { backoff: o.backoff }),
      });
      if (outcome === 'pending') report.retried++;
      else if (outcome === 'dead') {
        report.dead++;
        await buried(job, error);
      } else report.stale++;
      noteError({ id: job.id, kind: job.kind, attempt: job.attempt, error, outcome: outcome ?? 'stale' });
      o.log.warn('job failed', { job: job.id, kind: job.kind, attempt: job.attempt, outcome, error });
    } finally {
      clearTimeout(lease);
      o.signal?.removeEventListener('abort', onStop);
    }
  };
  const lanes = Math.max(1, Math.min(o.concurrency, o.maxJobs));
  await Promise.all(Array.from({ length: lanes }, lane));
  report.remaining = await countDueJobs(o.db, kinds, o.now());
  report.ms = Date.now() - started;
  return report;
}

/** Drain limits used by the worker route, the in-process loop, kicks and `extraction_run`. */
export const DRAIN_DEFAULTS = {
  maxJobs: 25,
  budgetMs: 20_000,
  leaseMs: 120_000,
  concurrency: 2,
} as const;
