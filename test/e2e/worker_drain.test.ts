// POST /worker/drain over real HTTP on PGlite and the local PostgreSQL: the worker secret is the only way
// in (no secret, a wrong one, an agent's bearer token → 401; a disabled route → 401), the report of a
// bounded drain, bad bodies; and a tool's kick after enqueue draining through the in-process loop.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { toolList as tools } from '../../functions/index.ts';
import { defineTool } from '../../src/contract/define.ts';
import { jobs } from '../../src/db/schema/jobs.ts';
import { type DrainLoop, startDrainLoop } from '../../src/jobs/loop.ts';
import { enqueueJob, type JobHandler } from '../../src/jobs/queue.ts';
import { createLogger } from '../../src/log.ts';
import { expectOk, startTestServer, type TestServer } from '../harness/server.ts';
import { describeWithService } from '../harness/services.ts';

const SECRET = 'worker-secret-for-tests-0123456789';
const KIND = 'probe_effect';

// A fixture tool that records a row and enqueues its follow-up work in the same transaction, then kicks.
const probe_job_add = defineTool({
  name: 'probe_job_add',
  title: 'Probe: enqueue a job',
  description:
    'Test fixture: records a note and enqueues a job for it in one transaction, then kicks the queue.',
  input: {
    note: z.string().min(1).max(50).describe('A note'),
  },
  output: z.object({ id: z.uuid(), created: z.boolean() }),
  mutates: 'write',
  idempotencyKey: { describe: 'note', of: (input) => input.note },
  async run({ ctx, input }) {
    const job = await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`insert into probe_notes (note) values (${input.note}) on conflict do nothing`);
      return enqueueJob(tx, { kind: KIND, dedupeKey: input.note, payload: { note: input.note } });
    });
    ctx.jobs.kick();
    return job;
  },
});

const effectHandler: JobHandler = async (job, jctx) => {
  await jctx.db.execute(
    sql`update probe_notes set done = done + 1 where note = ${String(job.payload.note)} and done = 0`,
  );
};

for (const kind of ['pglite', 'postgres'] as const) {
  const suite = (title: string, fn: () => void) =>
    kind === 'postgres' ? describeWithService('postgres', title, fn) : describe(title, fn);

  suite(`/worker/drain and kicks [${kind}]`, () => {
    let s: TestServer;
    let loop: DrainLoop | undefined;

    beforeAll(async () => {
      s = await startTestServer({
        db: kind,
        env: { WORKER_SECRET: SECRET },
        tools: [...tools, probe_job_add],
        grants: { ceo: ['probe_job_add'] },
        jobHandlers: { [KIND]: effectHandler },
        kick: () => loop?.kick(),
      });
      await s.db.db.execute(
        sql`create table probe_notes (note text primary key, done int not null default 0)`,
      );
    });
    afterAll(async () => {
      await loop?.stop();
      await s?.close();
    });

    const post = (headers: Record<string, string>, body = '') =>
      s.fetch('/worker/drain', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });

    it('refuses a call without the secret, with a wrong one, and with an agent token (401)', async () => {
      const attempts: Record<string, string>[] = [
        {},
        { authorization: `Bearer ${SECRET}x` },
        { authorization: `Bearer ${s.tokens.ceo}` },
        { authorization: SECRET },
      ];
      for (const headers of attempts) {
        const res = await post(headers);
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
        expect(await res.json()).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
      }
    });

    it('drains a bounded batch with the secret and returns the report', async () => {
      for (let i = 0; i < 3; i++) {
        await s.db.db.execute(sql`insert into probe_notes (note) values (${`route-${i}`})`);
        await enqueueJob(s.db.db, { kind: KIND, dedupeKey: `route-${i}`, payload: { note: `route-${i}` } });
      }
      const res = await post({ authorization: `Bearer ${SECRET}` }, JSON.stringify({ max_jobs: 2 }));
      expect(res.status).toBe(200);
      const report = await res.json();
      expect(report).toMatchObject({
        claimed: 2,
        succeeded: 2,
        retried: 0,
        dead: 0,
        stale: 0,
        errors: [],
        remaining: 1,
      });
      expect(typeof report.ms).toBe('number');
      const rest = await (await post({ authorization: `Bearer ${SECRET}` })).json();
      expect(rest).toMatchObject({ claimed: 1, succeeded: 1, remaining: 0 });
      const done = await s.db.db.execute(
        sql`select sum(done)::int as n from probe_notes where note like 'route-%'`,
      );
      expect((done as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(3);
    });

    it('refuses a bad body (400) without draining', async () => {
      // invalid_args in the envelope shape, with our words for each field (never zod's).
      const bad = await post({ authorization: `Bearer ${SECRET}` }, '{"max_jobs": 0}');
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({
        ok: false,
        status: 'error',
        error: {
          code: 'invalid_args',
          details: { issues: [{ path: 'max_jobs', message: 'must be a whole number from 1 to 200' }] },
        },
      });
      const unknown = await post({ authorization: `Bearer ${SECRET}` }, '{"jobs": 3}');
      expect(unknown.status).toBe(400);
      expect(await unknown.json()).toMatchObject({
        error: { code: 'invalid_args', details: { issues: [{ path: 'jobs' }] } },
      });
      const notJson = await post({ authorization: `Bearer ${SECRET}` }, '{');
      expect(notJson.status).toBe(400);
      expect(await notJson.json()).toMatchObject({ error: { code: 'invalid_args' } });
    });

    it('a tool that enqueues and kicks gets its job run by the in-process loop', async () => {
      loop = startDrainLoop({
        db: s.db.db,
        handlers: { [KIND]: effectHandler },
        log: createLogger('silent'),
        intervalMs: 3_600_000,
      });
      await loop.idle();
      const data = expectOk<{ id: string; created: boolean }>(
        await s.call('ceo', 'probe_job_add', { note: 'kicked' }),
      );
      expect(data.created).toBe(true);
      await loop.idle();
      expect((await s.db.db.select().from(jobs).where(eq(jobs.id, data.id)))[0]?.state).toBe('succeeded');
      const row = await s.db.db.execute(sql`select done from probe_notes where note = 'kicked'`);
      expect((row as unknown as { rows: { done: number }[] }).rows[0]?.done).toBe(1);
    });
  });
}

describe('/worker/drain without WORKER_SECRET', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.close());

  it('is disabled: every call gets 401, whatever it sends', async () => {
    const res = await s.fetch('/worker/drain', {
      method: 'POST',
      headers: { authorization: 'Bearer anything-at-all-here' },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      error: { code: 'unauthorized', message: expect.stringMatching(/WORKER_SECRET/) },
    });
  });
});
