// extraction_status through the official MCP client, on PGlite and the local PostgreSQL: per-kind counts
// (pending, running, failed, dead, succeeded) and the oldest waiting age, one document's jobs, empty,
// invalid arguments, and callers without the grant.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument } from '../../../src/documents/pipeline.ts';
import { drainJobs } from '../../../src/jobs/drain.ts';
import { claimJobs, enqueueJob } from '../../../src/jobs/queue.ts';
import { createLogger } from '../../../src/log.ts';
import { textBytes } from '../../harness/documents.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../../harness/server.ts';
import { describeWithService } from '../../harness/services.ts';

interface KindCounts {
  kind: string;
  pending: number;
  running: number;
  failed: number;
  dead: number;
  succeeded: number;
  oldest_pending_age_ms: number | null;
}
interface StatusData {
  kinds: KindCounts[];
  handled_kinds: string[];
  subject?: string;
  jobs?: { id: string; kind: string; state: string; attempt: number; last_error: string | null }[];
  truncated?: boolean;
  document?: { id: string; status: string; error: string | null; page_count: number | null };
}

let n = 0;
const freshKind = () => `status_${++n}_${crypto.randomUUID().slice(0, 6)}`;

for (const dbKind of ['pglite', 'postgres'] as const) {
  const suite = (title: string, fn: () => void) =>
    dbKind === 'postgres' ? describeWithService('postgres', title, fn) : describe(title, fn);

  suite(`extraction_status [${dbKind}]`, () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer({ db: dbKind, jobHandlers: { handled_kind: async () => {} } });
    });
    afterAll(async () => s?.close());

    /** Puts one job of `kind` in each state: 2 pending, 1 failed, 1 running, 1 dead, 1 succeeded. */
    const seed = async (kind: string, subject?: string) => {
      const db = s.db.db;
      const add = (key: string) =>
        enqueueJob(db, {
          kind,
          dedupeKey: key,
          payload: {},
          ...(subject ? { subject } : {}),
          maxAttempts: 2,
        });
      const drainOne = (handler: () => Promise<void>) =>
        drainJobs({
          db,
          handlers: { [kind]: handler },
          maxJobs: 1,
          budgetMs: 10_000,
          leaseMs: 60_000,
          workerId: 'seed',
          log: createLogger('silent'),
          now: () => new Date(),
        });
      const ids: Record<string, string> = {};
      ids.succeeded = (await add('ok')).id;
      await drainOne(async () => {});
      ids.failed = (await add('failing')).id;
      await drainOne(async () => {
        throw new Error('temporarily unreadable');
      });
      ids.dead = (await add('dead')).id;
      // Make the dead-to-be the only due job: failing waits for its backoff.
      await drainOne(async () => {
        throw new Error('first');
      });
      await db.execute(sql`update jobs set run_at = now() where id = ${ids.dead}`);
      await drainOne(async () => {
        throw new Error('the file is encrypted');
      });
      ids.running = (await add('running')).id;
      await claimJobs(db, { kinds: [kind], limit: 1, leaseMs: 60_000, workerId: 'busy', now: new Date() });
      ids.pending1 = (await add('p1')).id;
      ids.pending2 = (await add('p2')).id;
      return ids;
    };

    it('reports empty when no job matches', async () => {
      const env = await s.call('ceo', 'extraction_status', { kind: freshKind() });
      expect(env.status).toBe('empty');
      expect(expectOk<StatusData>(env)).toEqual({ kinds: [], handled_kinds: ['handled_kind'] });
    });

    it('counts each state per kind, with the age of the oldest waiting job', async () => {
      const kind = freshKind();
      const ids = await seed(kind);
      await s.db.db.execute(
        sql`update jobs set created_at = now() - interval '1 hour' where id = ${ids.pending1}`,
      );
      const env = await s.call('analyst', 'extraction_status', { kind });
      expect(env.status).toBe('ok');
      const data = expectOk<StatusData>(env);
      expect(data.kinds).toHaveLength(1);
      const [counts] = data.kinds;
      expect(counts).toMatchObject({ kind, pending: 2, running: 1, failed: 1, dead: 1, succeeded: 1 });
      expect(counts?.oldest_pending_age_ms).toBeGreaterThanOrEqual(3_600_000);
      expect(counts?.oldest_pending_age_ms).toBeLessThan(3_600_000 + 10 * 60_000);
      expect(env.message).toMatch(/2 pending, 1 running, 1 failed, 1 dead/);
      expect(data).not.toHaveProperty('jobs');

      // Without a filter every kind is listed, this one among them.
      const all = expectOk<StatusData>(await s.call('researcher', 'extraction_status', {}));
      expect(all.kinds.map((k) => k.kind)).toContain(kind);
    });

    /** A real document (pending: nothing extracts it here) for document_id to name. */
    const newDocument = async () =>
      (
        await createDocument(s.db.db, {
          corpus: 'style',
          caseId: null,
          bytes: textBytes(`החלטה לדוגמה ${crypto.randomUUID()}`),
          title: 'דוגמה',
          createdBy: 'test',
        })
      ).document.id;

    it('shows one document’s jobs with their states and errors (document_id → subject)', async () => {
      const documentId = await newDocument();
      const kind = freshKind();
      const ids = await seed(kind, `document:${documentId}`);
      await enqueueJob(s.db.db, {
        kind,
        dedupeKey: 'other-doc',
        payload: {},
        subject: `document:${crypto.randomUUID()}`,
      });
      const data = expectOk<StatusData>(
        await s.call('ceo', 'extraction_status', { document_id: documentId }),
      );
      expect(data.subject).toBe(`document:${documentId}`);
      expect(data.document).toEqual({ id: documentId, status: 'pending', error: null, page_count: null });
      expect(data.truncated).toBe(false);
      expect(data.kinds).toEqual([expect.objectContaining({ kind, pending: 2, failed: 1, dead: 1 })]);
      const byId = new Map(data.jobs?.map((j) => [j.id, j]));
      expect(byId.size).toBe(6);
      expect(byId.get(ids.failed as string)).toMatchObject({
        state: 'failed',
        attempt: 1,
        last_error: 'temporarily unreadable',
      });
      expect(byId.get(ids.dead as string)).toMatchObject({
        state: 'dead',
        attempt: 2,
        last_error: 'the file is encrypted',
      });
      expect(byId.get(ids.running as string)).toMatchObject({ state: 'running', last_error: null });
      expect(byId.get(ids.succeeded as string)).toMatchObject({ state: 'succeeded' });
      // The same through the raw subject.
      const same = expectOk<StatusData>(
        await s.call('ceo', 'extraction_status', { subject: `document:${documentId}` }),
      );
      expect(same.jobs?.map((j) => j.id).sort()).toEqual(data.jobs?.map((j) => j.id).sort());
    });

    it('is empty for a document without jobs, and still shows the document’s status', async () => {
      const documentId = await newDocument();
      const env = await s.call('ceo', 'extraction_status', { document_id: documentId });
      expect(env.status).toBe('empty');
      expect(expectOk<StatusData>(env).jobs).toEqual([]);
      expect(expectOk<StatusData>(env).document).toMatchObject({ id: documentId, status: 'pending' });
    });

    it('answers not_found for a document that does not exist', async () => {
      const missing = crypto.randomUUID();
      const env = await s.call('ceo', 'extraction_status', { document_id: missing });
      expect(errorCode(env)).toBe('not_found');
      expect(env.ok ? null : env.error.details).toMatchObject({ document_id: missing });
    });

    it('refuses document_id with subject, a malformed document id or kind (invalid_args)', async () => {
      const both = await s.call('ceo', 'extraction_status', {
        document_id: crypto.randomUUID(),
        subject: 'document:x',
      });
      expect(errorCode(both)).toBe('invalid_args');
      expect(errorCode(await s.call('ceo', 'extraction_status', { document_id: 'not-a-uuid' }))).toBe(
        'invalid_args',
      );
      expect(errorCode(await s.call('ceo', 'extraction_status', { kind: 'Bad Kind!' }))).toBe('invalid_args');
    });

    it('is refused to agents without the grant (tool_not_granted)', async () => {
      for (const agent of ['writer', 'qa'] as const) {
        expect(errorCode(await s.call(agent, 'extraction_status', {}))).toBe('tool_not_granted');
      }
    });
  });
}
