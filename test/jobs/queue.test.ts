// The durable queue on PGlite and the local PostgreSQL: dedupe, transactional enqueue, one-statement claims
// that never hand the same attempt to two workers, a killed worker's job running again with no duplicate
// effect, stale settles refused, backoff, dead after the maximum, and the in-process drain loop.
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../src/db/schema/jobs.ts';
import type { Db } from '../../src/db/types.ts';
import { type DrainOptions, drainJobs } from '../../src/jobs/drain.ts';
import { startDrainLoop } from '../../src/jobs/loop.ts';
import {
  backoffMs,
  claimJobs,
  completeJob,
  enqueueJob,
  failJob,
  type JobHandler,
  type JobRef,
  PermanentJobError,
  recoverLapsedJobs,
} from '../../src/jobs/queue.ts';
import { createLogger } from '../../src/log.ts';
import { forEachDb } from '../harness/databases.ts';
import { deferred } from '../harness/server.ts';

const log = createLogger('silent');
let n = 0;
/** A kind of its own per test: drains only claim the kinds they handle, so tests share one database. */
const freshKind = () => `test_${++n}_${crypto.randomUUID().slice(0, 6)}`;

const jobRow = async (db: Db, id: string) => (await db.select().from(jobs).where(eq(jobs.id, id)))[0];

/** An idempotent effect: one row per job, whatever the number of runs. */
const effect = (db: Db, jobId: string) =>
  db.execute(sql`insert into test_job_effects (job_id) values (${jobId}) on conflict do nothing`);
const effectCount = async (db: Db, jobId: string) => {
  const result = await db.execute(
    sql`select count(*)::int as n from test_job_effects where job_id = ${jobId}`,
  );
  return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n);
};

const drain = (db: Db, handlers: Record<string, JobHandler>, extra: Partial<DrainOptions> = {}) =>
  drainJobs({
    db,
    handlers,
    maxJobs: 100,
    budgetMs: 60_000,
    leaseMs: 60_000,
    workerId: 'w',
    log,
    now: () => new Date(),
    ...extra,
  });

/** A clock far ahead of the database's, moved by hand (the queue uses the later of the two). */
const handClock = () => {
  let t = Date.now() + 24 * 3600_000;
  return { now: () => new Date(t), advance: (ms: number) => (t += ms), at: () => t };
};

forEachDb('job queue', (getDb) => {
  const db = () => getDb().db;

  beforeAll(async () => {
    await db().execute(sql`create table test_job_effects (job_id uuid primary key)`);
  });

  it('dedupes on (kind, dedupe key): a second enqueue returns the first job', async () => {
    const kind = freshKind();
    const first = await enqueueJob(db(), {
      kind,
      dedupeKey: 'doc-1',
      payload: { a: 1 },
      subject: 'document:x',
    });
    const second = await enqueueJob(db(), { kind, dedupeKey: 'doc-1', payload: { a: 2 } });
    expect(first.created).toBe(true);
    expect(second).toEqual({ id: first.id, created: false });
    const other = await enqueueJob(db(), { kind: freshKind(), dedupeKey: 'doc-1', payload: {} });
    expect(other.created).toBe(true);
    expect(other.id).not.toBe(first.id);
    const row = await jobRow(db(), first.id);
    expect(row).toMatchObject({ state: 'pending', attempt: 0, payload: { a: 1 }, subject: 'document:x' });
  });

  it('commits and rolls back with the surrounding transaction', async () => {
    const kind = freshKind();
    await expect(
      db().transaction(async (tx) => {
        await enqueueJob(tx, { kind, dedupeKey: 'rolled', payload: {} });
        throw new Error('the row that needed the work failed');
      }),
    ).rejects.toThrow(/needed the work/);
    expect(await db().select().from(jobs).where(eq(jobs.kind, kind))).toEqual([]);
    const id = await db().transaction(
      async (tx) => (await enqueueJob(tx, { kind, dedupeKey: 'kept', payload: {} })).id,
    );
    expect((await jobRow(db(), id))?.state).toBe('pending');
  });

  it('never gives two concurrent claims the same job', async () => {
    const kind = freshKind();
    for (let i = 0; i < 30; i++) await enqueueJob(db(), { kind, dedupeKey: `c${i}`, payload: {} });
    const batches = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        claimJobs(db(), { kinds: [kind], limit: 5, leaseMs: 60_000, workerId: `w${i}`, now: new Date() }),
      ),
    );
    const ids = batches.flat().map((j) => j.id);
    expect(ids.length).toBe(30);
    expect(new Set(ids).size).toBe(30);
    expect(batches.flat().every((j) => j.attempt === 1)).toBe(true);
  });

  it('two concurrent drains never run the same attempt, and every job runs once', async () => {
    const kind = freshKind();
    const ids: string[] = [];
    for (let i = 0; i < 40; i++)
      ids.push((await enqueueJob(db(), { kind, dedupeKey: `d${i}`, payload: {} })).id);
    const runs: string[] = [];
    const handler: JobHandler = async (job) => {
      runs.push(`${job.id}:${job.attempt}`);
      await new Promise((r) => setTimeout(r, 1));
    };
    const [a, b] = await Promise.all([
      drain(db(), { [kind]: handler }, { workerId: 'a', concurrency: 3 }),
      drain(db(), { [kind]: handler }, { workerId: 'b', concurrency: 3 }),
    ]);
    expect(a.claimed + b.claimed).toBe(40);
    expect(a.succeeded + b.succeeded).toBe(40);
    expect(new Set(runs).size).toBe(runs.length);
    expect(runs.length).toBe(40);
    const states = await db()
      .select({ state: jobs.state, attempt: jobs.attempt })
      .from(jobs)
      .where(eq(jobs.kind, kind));
    expect(states.every((s) => s.state === 'succeeded' && s.attempt === 1)).toBe(true);
  });

  it('runs a killed worker’s job again once its lease lapses, refuses the stale settle, and the effect is single', async () => {
    const kind = freshKind();
    const { id } = await enqueueJob(db(), { kind, dedupeKey: 'killed', payload: {} });
    const entered = deferred();
    const release = deferred();
    const attempts: number[] = [];
    // Worker A takes the job and hangs (a worker killed mid-job, as far as the queue can tell).
    const hung: JobHandler = async (job, jctx) => {
      attempts.push(job.attempt);
      entered.resolve();
      await release.promise;
      await effect(jctx.db, job.id);
    };
    const workerA = drain(db(), { [kind]: hung }, { workerId: 'a', leaseMs: 1_000 });
    await entered.promise;
    expect(await jobRow(db(), id)).toMatchObject({ state: 'running', attempt: 1, lockedBy: 'a' });

    // Before the lease lapses nobody else may take it.
    const early = await drain(db(), { [kind]: hung }, { workerId: 'b' });
    expect(early.claimed).toBe(0);

    // Worker B, after the lease lapsed (its clock 5 s on), runs it again: attempt 2.
    const later = () => new Date(Date.now() + 5_000);
    const b = await drain(
      db(),
      {
        [kind]: async (job, jctx) => {
          attempts.push(job.attempt);
          await effect(jctx.db, job.id);
        },
      },
      { workerId: 'b', now: later },
    );
    expect(b).toMatchObject({ recovered: 1, claimed: 1, succeeded: 1, stale: 0 });
    expect(await jobRow(db(), id)).toMatchObject({ state: 'succeeded', attempt: 2 });

    // A wakes up, repeats the effect (idempotent) and tries to settle attempt 1: refused as stale.
    release.resolve();
    const a = await workerA;
    expect(a).toMatchObject({ claimed: 1, succeeded: 0, stale: 1 });
    expect(attempts).toEqual([1, 2]);
    expect(await jobRow(db(), id)).toMatchObject({ state: 'succeeded', attempt: 2 });
    expect(await effectCount(db(), id)).toBe(1);
  });

  it('settles only (id, attempt) while running: a stale complete or fail never touches a newer attempt', async () => {
    const kind = freshKind();
    const clock = handClock();
    const { id } = await enqueueJob(db(), { kind, dedupeKey: 'stale', payload: {} });
    const claim = (workerId: string) =>
      claimJobs(db(), { kinds: [kind], limit: 1, leaseMs: 1_000, workerId, now: clock.now() });
    const [first] = await claim('a');
    expect(first?.attempt).toBe(1);
    clock.advance(2_000);
    // The lease lapsed: the next drain's sweep puts the job back, counting the lost attempt as failed.
    expect(await recoverLapsedJobs(db(), [kind], clock.now())).toEqual({ requeued: 1, dead: 0 });
    expect(await jobRow(db(), id)).toMatchObject({ state: 'pending', attempt: 1, lockedBy: null });
    expect((await jobRow(db(), id))?.lastError).toMatch(/^attempt 1: lease lapsed/);
    expect(await completeJob(db(), { id, attempt: 1, now: clock.now() })).toBe(false);
    const [second] = await claim('b');
    expect(second?.attempt).toBe(2);
    expect(await completeJob(db(), { id, attempt: 1, now: clock.now() })).toBe(false);
    expect(await failJob(db(), { id, attempt: 1, now: clock.now(), error: 'stale' })).toBeNull();
    expect(await jobRow(db(), id)).toMatchObject({
      state: 'running',
      attempt: 2,
      lockedBy: 'b',
    });
    expect(await completeJob(db(), { id, attempt: 2, now: clock.now() })).toBe(true);
    // Once settled, the same attempt cannot be settled again either.
    expect(await failJob(db(), { id, attempt: 2, now: clock.now(), error: 'late' })).toBeNull();
    expect((await jobRow(db(), id))?.state).toBe('succeeded');
  });

  it('retries a poison job with backoff until max_attempts, then keeps it dead with its error', async () => {
    const kind = freshKind();
    const clock = handClock();
    const { id } = await enqueueJob(db(), { kind, dedupeKey: 'poison', payload: {}, maxAttempts: 3 });
    const handlers = {
      [kind]: async (job: { attempt: number }) => {
        throw new Error(`boom on attempt ${job.attempt}`);
      },
    };
    const opts = { now: clock.now, backoff: { baseMs: 1_000, capMs: 60_000 } };
    const reports = [];
    for (let i = 0; i < 3; i++) {
      reports.push(await drain(db(), handlers, opts));
      // Not due again until its backoff has passed.
      expect((await drain(db(), handlers, opts)).claimed).toBe(0);
      clock.advance(10 * 60_000);
    }
    expect(reports.map((r) => [r.claimed, r.retried, r.dead])).toEqual([
      [1, 1, 0],
      [1, 1, 0],
      [1, 0, 1],
    ]);
    expect(reports[2]?.errors).toEqual([
      { id, kind, attempt: 3, error: 'boom on attempt 3', outcome: 'dead' },
    ]);
    expect(await jobRow(db(), id)).toMatchObject({
      state: 'dead',
      attempt: 3,
      lastError: 'boom on attempt 3',
    });
    expect((await jobRow(db(), id))?.finishedAt).not.toBeNull();
    expect((await drain(db(), handlers, opts)).claimed).toBe(0);
  });

  it('grows the delay between attempts exponentially up to the cap', async () => {
    const kind = freshKind();
    const clock = handClock();
    const backoff = { baseMs: 1_000, capMs: 8_000 };
    const { id } = await enqueueJob(db(), { kind, dedupeKey: 'backoff', payload: {}, maxAttempts: 7 });
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      const report = await drain(
        db(),
        {
          [kind]: async () => {
            throw new Error('again');
          },
        },
        { now: clock.now, backoff },
      );
      expect(report.retried).toBe(1);
      const row = await jobRow(db(), id);
      delays.push((row?.runAt.getTime() ?? 0) - clock.at());
      clock.advance(60_000);
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
    expect([1, 2, 3, 4, 5].map((a) => backoffMs(a, backoff))).toEqual([1_000, 2_000, 4_000, 8_000, 8_000]);
  });

  it('sends a job dead at once on PermanentJobError, keeping the message', async () => {
    const kind = freshKind();
    const { id } = await enqueueJob(db(), { kind, dedupeKey: 'perm', payload: {} });
    const report = await drain(db(), {
      [kind]: async () => {
        throw new PermanentJobError('the PDF is encrypted');
      },
    });
    expect(report).toMatchObject({ claimed: 1, dead: 1, retried: 0 });
    expect(await jobRow(db(), id)).toMatchObject({
      state: 'dead',
      attempt: 1,
      lastError: 'the PDF is encrypted',
    });
  });

  it('buries a job whose worker was lost on its last attempt', async () => {
    const kind = freshKind();
    const clock = handClock();
    const { id } = await enqueueJob(db(), { kind, dedupeKey: 'lost', payload: {}, maxAttempts: 1 });
    await claimJobs(db(), { kinds: [kind], limit: 1, leaseMs: 1_000, workerId: 'lost', now: clock.now() });
    clock.advance(5_000);
    const report = await drain(db(), { [kind]: async () => {} }, { now: clock.now });
    expect(report).toMatchObject({ claimed: 0, dead: 1 });
    const row = await jobRow(db(), id);
    expect(row).toMatchObject({ state: 'dead', attempt: 1 });
    expect(row?.lastError).toMatch(/lease lapsed/);
  });

  it('runs the kind’s onDead hook once per job that goes dead, by every path; a failing hook changes nothing', async () => {
    const kind = freshKind();
    const clock = handClock();
    const buried: string[] = [];
    const handler: JobHandler = Object.assign(
      async (job: JobRef) => {
        if (job.payload.how === 'permanent') throw new PermanentJobError('unreadable');
        if (job.payload.how === 'transient') throw new Error(`flaky ${job.attempt}/${job.maxAttempts}`);
      },
      {
        onDead: async (job: JobRef & { error: string }) => {
          buried.push(`${String(job.payload.how)}: ${job.error}`);
          if (job.payload.how === 'transient') throw new Error('the hook itself failed');
        },
      },
    );
    const add = (how: string) => enqueueJob(db(), { kind, dedupeKey: how, payload: { how }, maxAttempts: 1 });
    const lapsed = await add('lapsed');
    await claimJobs(db(), { kinds: [kind], limit: 1, leaseMs: 1_000, workerId: 'dies', now: clock.now() });
    const ok = await add('ok');
    const permanent = await add('permanent');
    const transient = await add('transient');
    clock.advance(60_000);
    const report = await drain(db(), { [kind]: handler }, { now: clock.now });
    expect(report).toMatchObject({ succeeded: 1, dead: 3 });
    expect(buried.sort()).toEqual([
      'lapsed: attempt 1: lease lapsed (worker lost or too slow)',
      'permanent: unreadable',
      'transient: flaky 1/1',
    ]);
    for (const job of [lapsed, permanent, transient])
      expect((await jobRow(db(), job.id))?.state).toBe('dead');
    expect((await jobRow(db(), ok.id))?.state).toBe('succeeded');
    // Nothing is buried twice: a later drain finds no new dead job.
    await drain(db(), { [kind]: handler }, { now: clock.now });
    expect(buried).toHaveLength(3);
  });

  it('claims only the kinds it handles, stops at maxJobs and reports what remains', async () => {
    const kind = freshKind();
    const unhandled = freshKind();
    const { id: waiting } = await enqueueJob(db(), { kind: unhandled, dedupeKey: 'u', payload: {} });
    for (let i = 0; i < 5; i++) await enqueueJob(db(), { kind, dedupeKey: `m${i}`, payload: { i } });
    const seen: unknown[] = [];
    const handlers = {
      [kind]: async (job: { payload: Record<string, unknown> }) => {
        seen.push(job.payload.i);
      },
    };
    const report = await drain(db(), handlers, { maxJobs: 2, concurrency: 4 });
    expect(report).toMatchObject({ claimed: 2, succeeded: 2, remaining: 3 });
    // The oldest due jobs first (two lanes may finish them in either order).
    expect([...seen].sort()).toEqual([0, 1]);
    const rest = await drain(db(), handlers);
    expect(rest).toMatchObject({ claimed: 3, remaining: 0 });
    expect((await jobRow(db(), waiting))?.state).toBe('pending');
  });

  it('the in-process loop drains on a kick and stops cleanly', async () => {
    const kind = freshKind();
    const done: string[] = [];
    const loop = startDrainLoop({
      db: db(),
      handlers: {
        [kind]: async (job) => {
          done.push(job.id);
        },
      },
      log,
      intervalMs: 3_600_000,
    });
    try {
      await loop.idle();
      const { id } = await enqueueJob(db(), { kind, dedupeKey: 'kicked', payload: {} });
      loop.kick();
      await loop.idle();
      expect(done).toEqual([id]);
      expect((await jobRow(db(), id))?.state).toBe('succeeded');
    } finally {
      await loop.stop();
    }
    // Stopped: a kick does nothing any more.
    const { id: after } = await enqueueJob(db(), { kind, dedupeKey: 'after-stop', payload: {} });
    loop.kick();
    await loop.idle();
    expect((await jobRow(db(), after))?.state).toBe('pending');
  });
});

describe('backoffMs', () => {
  it('doubles from the base and stops at the cap', () => {
    expect([1, 2, 3, 10, 30].map((a) => backoffMs(a, { baseMs: 500, capMs: 5_000 }))).toEqual([
      500, 1_000, 2_000, 5_000, 5_000,
    ]);
  });
});
