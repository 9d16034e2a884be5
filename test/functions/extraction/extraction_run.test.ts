// extraction_run through the official MCP client, on PGlite and the local PostgreSQL: drains a bounded
// batch with the server's handlers and reports it (failures included), filters by kind, drains again on a
// repeat instead of replaying, writes an audit row, refuses bad arguments and callers without the grant.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../../src/db/schema/jobs.ts';
import { enqueueJob, type JobHandler } from '../../../src/jobs/queue.ts';
import { auditMark } from '../../harness/rows.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../../harness/server.ts';
import { describeWithService } from '../../harness/services.ts';

interface Report {
  claimed: number;
  succeeded: number;
  retried: number;
  dead: number;
  stale: number;
  errors: { id: string; kind: string; attempt: number; error: string; outcome: string }[];
  ms: number;
  remaining: number;
}

for (const dbKind of ['pglite', 'postgres'] as const) {
  const suite = (title: string, fn: () => void) =>
    dbKind === 'postgres' ? describeWithService('postgres', title, fn) : describe(title, fn);

  suite(`extraction_run [${dbKind}]`, () => {
    let s: TestServer;
    const ran: string[] = [];
    const record: JobHandler = async (job) => {
      ran.push(job.id);
    };
    beforeAll(async () => {
      s = await startTestServer({
        db: dbKind,
        jobHandlers: {
          run_a: record,
          run_b: record,
          run_flaky: async () => {
            throw new Error('upstream unavailable');
          },
        },
      });
    });
    afterAll(async () => s?.close());

    const add = (kind: string, key: string) => enqueueJob(s.db.db, { kind, dedupeKey: key, payload: {} });
    const state = async (id: string) => (await s.db.db.select().from(jobs).where(eq(jobs.id, id)))[0]?.state;

    it('drains the waiting jobs and reports them, with an audit row', async () => {
      const ids = [
        (await add('run_a', 'a1')).id,
        (await add('run_a', 'a2')).id,
        (await add('run_b', 'b1')).id,
      ];
      const audit = await auditMark(s.db.db);
      const env = await s.call('ceo', 'extraction_run', {});
      const report = expectOk<Report>(env);
      expect(report).toMatchObject({
        claimed: 3,
        succeeded: 3,
        retried: 0,
        dead: 0,
        errors: [],
        remaining: 0,
      });
      expect(env.message).toMatch(/Ran 3 job\(s\): 3 succeeded/);
      expect(ran.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
      for (const id of ids) expect(await state(id)).toBe('succeeded');
      expect((await audit()).map((r) => [r.tool, r.outcome])).toEqual([['extraction_run', 'ok']]);
    });

    it('runs again on a repeat (never replays an old report) and stops at max_jobs', async () => {
      for (let i = 0; i < 3; i++) await add('run_a', `m${i}`);
      const first = await s.call('analyst', 'extraction_run', { max_jobs: 1 });
      expect(expectOk<Report>(first)).toMatchObject({ claimed: 1, remaining: 2 });
      const second = await s.call('analyst', 'extraction_run', { max_jobs: 1 });
      expect(second.ok && second.replayed).toBeFalsy();
      expect(expectOk<Report>(second)).toMatchObject({ claimed: 1, remaining: 1 });
      expect(expectOk<Report>(await s.call('analyst', 'extraction_run', {}))).toMatchObject({
        claimed: 1,
        remaining: 0,
      });
      expect(expectOk<Report>(await s.call('analyst', 'extraction_run', {}))).toMatchObject({ claimed: 0 });
    });

    it('drains only the kind asked for', async () => {
      const a = await add('run_a', 'k-a');
      const b = await add('run_b', 'k-b');
      expect(expectOk<Report>(await s.call('ceo', 'extraction_run', { kind: 'run_b' }))).toMatchObject({
        claimed: 1,
      });
      expect(await state(b.id)).toBe('succeeded');
      expect(await state(a.id)).toBe('pending');
      expect(expectOk<Report>(await s.call('ceo', 'extraction_run', { kind: 'run_a' }))).toMatchObject({
        claimed: 1,
      });
    });

    it('reports a failing job: retried, with its error kept on the job', async () => {
      const { id } = await add('run_flaky', 'f1');
      const report = expectOk<Report>(await s.call('ceo', 'extraction_run', { kind: 'run_flaky' }));
      expect(report).toMatchObject({ claimed: 1, succeeded: 0, retried: 1 });
      expect(report.errors).toEqual([
        { id, kind: 'run_flaky', attempt: 1, error: 'upstream unavailable', outcome: 'pending' },
      ]);
      const row = (await s.db.db.select().from(jobs).where(eq(jobs.id, id)))[0];
      expect(row).toMatchObject({ state: 'pending', attempt: 1, lastError: 'upstream unavailable' });
      await s.db.db.execute(sql`delete from jobs where id = ${id}`);
    });

    it('refuses a kind no handler runs, and a max_jobs out of bounds (invalid_args)', async () => {
      const unknown = await s.call('ceo', 'extraction_run', { kind: 'nobody_runs_this' });
      expect(errorCode(unknown)).toBe('invalid_args');
      // The refusal names the kinds this server runs.
      expect(unknown.ok ? '' : unknown.message).toContain('it runs run_a, run_b, run_flaky');
      expect(errorCode(await s.call('ceo', 'extraction_run', { max_jobs: 0 }))).toBe('invalid_args');
      expect(errorCode(await s.call('ceo', 'extraction_run', { max_jobs: 101 }))).toBe('invalid_args');
    });

    it('is refused to agents without the grant (tool_not_granted), and runs nothing', async () => {
      const { id } = await add('run_a', 'not-granted');
      for (const agent of ['researcher', 'writer', 'qa'] as const) {
        expect(errorCode(await s.call(agent, 'extraction_run', {}))).toBe('tool_not_granted');
      }
      expect(await state(id)).toBe('pending');
    });
  });
}
