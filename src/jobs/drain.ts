// Draining: one bounded batch of due jobs, run by their kinds' handlers and settled by (id, attempt). Used by
// the worker route, the in-process loop, kicks, the Cron Trigger and extraction_run.
import type { Db } from '../db/types.ts';
import { errorText, type Logger } from '../log.ts';
import {
  type Backoff,
  claimJobs,
  completeJob,
  countDueJobs,
  failJob,
  type JobHandler,
  type JobRef,
  PermanentJobError,
  recoverLapsed,
} from './queue.ts';

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
      // Stored in the job row and shown by extraction_status: errorText keeps a failed query's parameters out.
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
