/**
 * The durable job queue over the `jobs` table: enqueue, claim, settle, retry. Draining a batch is drain.ts.
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
import { sql } from '../db/orm.ts';
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
  /**
   * A job of the same key that went `dead` is put back to `pending` with fresh attempts (asking again for work
   * that failed is a retry, not a duplicate); a pending, running or succeeded one is returned as it is.
   */
  reviveDead?: boolean;
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
  if (job.reviveDead === true) {
    const revived = await db.execute(sql`
      update jobs set state = 'pending', attempt = 0, last_error = null, run_at = now(), lease_until = null,
        locked_by = null, finished_at = null, updated_at = now(), payload = ${JSON.stringify(job.payload)}::jsonb
      where kind = ${job.kind} and dedupe_key = ${job.dedupeKey} and state = 'dead'
      returning id`);
    const id = rowsOf(revived)[0]?.id;
    if (typeof id === 'string') return { id, created: true };
  }
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

/**
 * Ends the lease of every running job now, so that the next drain recovers them at once (as lapsed attempts)
 * instead of after their lease. Only for a database one process holds (the embedded one, under the
 * DATA_DIR lock): at its start, a running job belongs to a process that is gone (killed, crashed).
 */
export async function endOrphanedLeases(db: Db, now: Date): Promise<number> {
  const t = clock(now);
  const result = await db.execute(sql`
    update jobs set lease_until = ${t} - interval '1 millisecond', updated_at = ${t}
    where state = 'running' and lease_until >= ${t}
    returning id`);
  return rowsOf(result).length;
}

/** recoverLapsedJobs with the jobs that went dead, for their kind's onDead hook. */
export async function recoverLapsed(
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
