// The document_extract job handler on the real queue, on PGlite and the local PostgreSQL: success, a
// permanent failure (dead at once, the document keeps its own error), and both ways a job can run out of
// attempts on a transient fault — the last attempt failing, and the last attempt's worker dying (lease
// lapsed) — after which the document is failed with the reason, never left pending or extracting.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { jobHandlers } from '../../entry/registries.ts';
import { type DocumentRow, documents } from '../../src/db/schema/documents.ts';
import { jobs } from '../../src/db/schema/jobs.ts';
import type { Db } from '../../src/db/types.ts';
import { DOCUMENT_EXTRACT, documentExtractJob, documentSubject } from '../../src/documents/extract_job.ts';
import { createDocument } from '../../src/documents/pipeline.ts';
import { type DrainOptions, drainJobs } from '../../src/jobs/drain.ts';
import { claimJobs, enqueueJob, type JobHandler } from '../../src/jobs/queue.ts';
import { createLogger } from '../../src/log.ts';
import { fixtureBytes } from '../fixtures/hebrew/corpus.ts';
import { forEachDb } from '../harness/databases.ts';
import { textBytes } from '../harness/documents.ts';

const log = createLogger('silent');

/** A clock far ahead of the database's, moved by hand (the queue uses the later of the two). */
const handClock = () => {
  let t = Date.now() + 24 * 3600_000;
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
};

const documentExtractHandler = documentExtractJob();

forEachDb('document_extract job', (getDb) => {
  const db = (): Db => getDb().db;
  const drain = (handlers: Record<string, JobHandler>, extra: Partial<DrainOptions> = {}) =>
    drainJobs({
      db: db(),
      handlers,
      maxJobs: 10,
      budgetMs: 60_000,
      leaseMs: 60_000,
      workerId: 'w',
      log,
      now: () => new Date(),
      ...extra,
    });
  /** A document and its extraction job, as document_upload makes them. */
  const upload = async (bytes: Uint8Array, maxAttempts = 5) => {
    const { document } = await createDocument(db(), {
      corpus: 'style',
      caseId: null,
      bytes,
      title: 'דוגמה',
      createdBy: 'test',
    });
    const job = await enqueueJob(db(), {
      kind: DOCUMENT_EXTRACT,
      dedupeKey: document.id,
      subject: documentSubject(document.id),
      payload: { document_id: document.id },
      maxAttempts,
    });
    return { documentId: document.id, jobId: job.id };
  };
  const docRow = async (id: string): Promise<DocumentRow | undefined> =>
    (await db().select().from(documents).where(eq(documents.id, id)))[0];
  const jobRow = async (id: string) => (await db().select().from(jobs).where(eq(jobs.id, id)))[0];
  const text = () => textBytes(`החלטה לדוגמה ${crypto.randomUUID()}`);

  it('is the production handler for document_extract, and extracts the document', async () => {
    expect(typeof jobHandlers[DOCUMENT_EXTRACT]).toBe('function');
    const { documentId, jobId } = await upload(text());
    const report = await drain({ [DOCUMENT_EXTRACT]: documentExtractHandler });
    expect(report.succeeded).toBe(1);
    expect((await docRow(documentId))?.status).toBe('ready');
    expect((await jobRow(jobId))?.state).toBe('succeeded');
  });

  it('a permanent failure goes dead at once, and the document keeps its own error', async () => {
    const { documentId, jobId } = await upload(await fixtureBytes('encrypted', 'pdf'));
    const report = await drain({ [DOCUMENT_EXTRACT]: documentExtractHandler });
    expect(report).toMatchObject({ dead: 1, retried: 0 });
    const job = await jobRow(jobId);
    expect(job).toMatchObject({ state: 'dead', attempt: 1 });
    const doc = await docRow(documentId);
    expect(doc?.status).toBe('failed');
    expect(doc?.error).toMatch(/encrypt/i);
    // onDead ran too, but never overwrites the extraction's own, clearer error.
    expect(doc?.error).toBe(job?.lastError);
  });

  it('a job whose document is gone goes dead without retries', async () => {
    const { documentId, jobId } = await upload(text());
    await db().delete(documents).where(eq(documents.id, documentId));
    const report = await drain({ [DOCUMENT_EXTRACT]: documentExtractHandler });
    expect(report.dead).toBe(1);
    expect((await jobRow(jobId))?.lastError).toMatch(/No document/);
  });

  it('a transient fault is retried; when the last attempt fails the document is failed with the error', async () => {
    const clock = handClock();
    const { documentId, jobId } = await upload(text(), 2);
    // The real handler's onDead, behind a first step that keeps failing the way a lost database does.
    const flaky: JobHandler = Object.assign(
      async () => {
        throw new Error('connection to the database was lost');
      },
      { onDead: documentExtractHandler.onDead },
    );
    const options = { now: clock.now, backoff: { baseMs: 1_000, capMs: 1_000 } };
    const first = await drain({ [DOCUMENT_EXTRACT]: flaky }, options);
    expect(first).toMatchObject({ retried: 1, dead: 0 });
    // Between attempts the document still waits: a retry may yet succeed.
    expect((await docRow(documentId))?.status).toBe('pending');
    clock.advance(5_000);
    const second = await drain({ [DOCUMENT_EXTRACT]: flaky }, options);
    expect(second).toMatchObject({ retried: 0, dead: 1 });
    expect((await jobRow(jobId))?.state).toBe('dead');
    const doc = await docRow(documentId);
    expect(doc?.status).toBe('failed');
    expect(doc?.error).toBe('Extraction gave up after 2 attempt(s): connection to the database was lost');
  });

  it('when the last attempt’s worker dies (lease lapsed), the next drain marks the document failed', async () => {
    const clock = handClock();
    const { documentId, jobId } = await upload(text(), 1);
    // A worker claims the only attempt, marks the document extracting, and dies.
    const [claimed] = await claimJobs(db(), {
      kinds: [DOCUMENT_EXTRACT],
      limit: 1,
      leaseMs: 1_000,
      workerId: 'dying',
      now: clock.now(),
    });
    expect(claimed?.id).toBe(jobId);
    await db().update(documents).set({ status: 'extracting' }).where(eq(documents.id, documentId));
    clock.advance(60_000);
    const report = await drain({ [DOCUMENT_EXTRACT]: documentExtractHandler }, { now: clock.now });
    expect(report).toMatchObject({ dead: 1, claimed: 0 });
    expect((await jobRow(jobId))?.state).toBe('dead');
    const doc = await docRow(documentId);
    expect(doc?.status).toBe('failed');
    expect(doc?.error).toMatch(/^Extraction gave up after 1 attempt\(s\): attempt 1: lease lapsed/);
  });

  it('a drain stopped before the job starts leaves the attempt to a retry', async () => {
    const { documentId, jobId } = await upload(text());
    const stopped = new AbortController();
    const handler: JobHandler = (job, jctx) => {
      stopped.abort(new Error('shutting down'));
      return documentExtractHandler(job, { ...jctx, signal: stopped.signal });
    };
    const report = await drain({ [DOCUMENT_EXTRACT]: handler });
    expect(report.retried).toBe(1);
    expect((await jobRow(jobId))?.state).toBe('pending');
    expect((await docRow(documentId))?.status).toBe('pending');
  });
});
