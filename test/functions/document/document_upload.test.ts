// document_upload through the official MCP client over HTTP, on PGlite and the local PostgreSQL: every
// supported type end to end (upload → extraction → text by page → search with provenance), idempotency
// (a repeat, the same bytes another way, 20 concurrent identical uploads), encrypted and broken PDFs, and the
// kick after upload. Its refusals are in document_upload.refusals.test.ts.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobHandlers } from '../../../entry/registries.ts';
import type { document_text_get } from '../../../functions/document/document_text_get.ts';
import type { document_upload } from '../../../functions/document/document_upload.ts';
import type { extraction_run } from '../../../functions/extraction/extraction_run.ts';
import type { search_case } from '../../../functions/search/search_case.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { documentChunks, documentPages, documents } from '../../../src/db/schema/documents.ts';
import { jobs } from '../../../src/db/schema/jobs.ts';
import { type DrainLoop, startDrainLoop } from '../../../src/jobs/loop.ts';
import { createLogger } from '../../../src/log.ts';
import { fixtureBytes, fixturePages } from '../../fixtures/hebrew/corpus.ts';
import { seedCase, textBytes } from '../../harness/documents.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../../harness/server.ts';
import { describeWithService } from '../../harness/services.ts';

type Upload = ToolData<typeof document_upload>;
type TextData = ToolData<typeof document_text_get>;
type Hits = ToolData<typeof search_case>;
type RunReport = ToolData<typeof extraction_run>;

const PDF = 'application/pdf';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const unique = (text: string) => `${text}\nמזהה ${crypto.randomUUID()}`;

/**
 * 20 identical uploads at once from two agents (so both the request layer, per agent, and the database,
 * across agents, are exercised); in_progress answers are retried until they settle.
 */
async function twentyConcurrentUploads(s: TestServer): Promise<void> {
  const caseId = await seedCase(s.db.db);
  const args = { corpus: 'case', case_id: caseId, text: unique('כתב ערר — העלאה במקביל') };
  const settle = async (agent: 'ceo' | 'analyst'): Promise<Upload> => {
    for (;;) {
      const env = await s.call(agent, 'document_upload', args);
      if (errorCode(env) !== 'in_progress') return expectOk<Upload>(env);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => settle(i % 2 === 0 ? 'ceo' : 'analyst')),
  );
  const ids = new Set(answers.map((a) => a.document.id));
  expect(ids.size).toBe(1);
  const [id] = [...ids];
  const rows = await s.db.db.select().from(documents).where(eq(documents.caseId, caseId));
  expect(rows.map((r) => r.id)).toEqual([id]);
  const queued = await s.db.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, 'document_extract'), eq(jobs.dedupeKey, id as string)));
  expect(queued).toHaveLength(1);
  expect(new Set(answers.map((a) => a.job_id))).toEqual(new Set([queued[0]?.id]));
  // Per agent the request layer runs the call once and replays it; across the two agents the database
  // created the document once: one agent's ten answers say created, the other's ten do not.
  const created = answers.map((a, i) => `${i % 2}:${a.created}`);
  expect(new Set(created).size).toBe(2);
  expect(answers.filter((a) => a.created)).toHaveLength(10);
}

for (const dbKind of ['pglite', 'postgres'] as const) {
  const suite = (title: string, fn: () => void) =>
    dbKind === 'postgres' ? describeWithService('postgres', title, fn) : describe(title, fn);

  suite(`document_upload [${dbKind}]`, () => {
    let s: TestServer;
    let loop: DrainLoop | undefined;
    const upload = (args: Record<string, unknown>, agent: 'ceo' | 'analyst' = 'ceo') =>
      s.call(agent, 'document_upload', args);
    const run = async () => expectOk<RunReport>(await s.call('ceo', 'extraction_run', { max_jobs: 50 }));
    const jobsOf = (documentId: string) =>
      s.db.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, 'document_extract'), eq(jobs.dedupeKey, documentId)));
    const docRow = async (id: string) =>
      (await s.db.db.select().from(documents).where(eq(documents.id, id)))[0];

    beforeAll(async () => {
      s = await startTestServer({ db: dbKind, kick: () => loop?.kick() });
    });
    afterAll(async () => {
      await loop?.stop();
      await s?.close();
    });

    it('stores plain text for a case, queues one extraction, and the text becomes readable and searchable', async () => {
      const caseId = await seedCase(s.db.db);
      const text = unique(new TextDecoder().decode(await fixtureBytes('appraisal', 'txt')));
      const env = await upload({
        corpus: 'case',
        case_id: caseId,
        text,
        title: 'חוות דעת',
        filename: 'a.txt',
      });
      const data = expectOk<Upload>(env);
      expect(data).toMatchObject({
        created: true,
        document: {
          corpus: 'case',
          case_id: caseId,
          status: 'pending',
          media_type: 'text/plain',
          byte_size: textBytes(text).length,
          title: 'חוות דעת',
        },
      });
      expect((await docRow(data.document.id))?.filename).toBe('a.txt');
      expect(data.next).toContain('extraction_status');
      expect(env.ok ? env.message : '').toContain('extraction queued');
      const queued = await jobsOf(data.document.id);
      expect(queued).toHaveLength(1);
      expect(queued[0]).toMatchObject({
        id: data.job_id,
        subject: `document:${data.document.id}`,
        state: 'pending',
      });
      expect(queued[0]?.payload).toEqual({ document_id: data.document.id });
      // Not readable before extraction.
      expect(errorCode(await s.call('analyst', 'document_text_get', { document_id: data.document.id }))).toBe(
        'invalid_state',
      );
      expect((await run()).succeeded).toBeGreaterThanOrEqual(1);
      const status = expectOk<{ document: { status: string } }>(
        await s.call('ceo', 'extraction_status', { document_id: data.document.id }),
      );
      expect(status.document.status).toBe('ready');
      const read = expectOk<TextData>(
        await s.call('analyst', 'document_text_get', { document_id: data.document.id }),
      );
      expect(read.pages.map((p) => p.page)).toEqual([1, 2, 3]);
      expect(read.pages[1]?.text).toContain('עסקאות השוואה');
      const hits = expectOk<Hits>(
        await s.call('analyst', 'search_case', { case_id: caseId, query: 'עסקאות השוואה' }),
      );
      expect(hits.items[0]).toMatchObject({ document_id: data.document.id, page: 2 });
      expect(hits.items[0]?.snippet).toContain('«');
    });

    it('a repeat returns the first document (created=false) and starts no second extraction', async () => {
      const caseId = await seedCase(s.db.db);
      const text = unique('פרוטוקול הדיון בוועדה');
      const first = expectOk<Upload>(await upload({ corpus: 'case', case_id: caseId, text }));
      // The same arguments again: the request layer replays the first answer.
      const again = await upload({ corpus: 'case', case_id: caseId, text });
      expect(expectOk<Upload>(again).document.id).toBe(first.document.id);
      // Other metadata with the same bytes is no conflict: the first document, its metadata unchanged.
      const retitled = expectOk<Upload>(
        await upload({ corpus: 'case', case_id: caseId, text, title: 'שם אחר' }),
      );
      expect(retitled).toMatchObject({
        created: false,
        document: { id: first.document.id, title: first.document.title },
      });
      // The same bytes as a file, and from another agent: the durable layer returns the first document.
      const asFile = expectOk<Upload>(
        await upload({ corpus: 'case', case_id: caseId, content_base64: b64(textBytes(text)), title: 'אחר' }),
      );
      expect(asFile).toMatchObject({
        created: false,
        job_id: first.job_id,
        document: { id: first.document.id },
      });
      expect(asFile.document.title).toBe(first.document.title);
      expect(asFile.next).toContain('extraction_status');
      const other = expectOk<Upload>(await upload({ corpus: 'case', case_id: caseId, text }, 'analyst'));
      expect(other).toMatchObject({ created: false, document: { id: first.document.id } });
      expect(await jobsOf(first.document.id)).toHaveLength(1);
      const rows = await s.db.db.select().from(documents).where(eq(documents.caseId, caseId));
      expect(rows).toHaveLength(1);
      // Another case, or the style corpus, is another document.
      const elsewhere = expectOk<Upload>(
        await upload({ corpus: 'case', case_id: await seedCase(s.db.db), text }),
      );
      expect(elsewhere.created).toBe(true);
      expect(elsewhere.document.id).not.toBe(first.document.id);
    });

    it('20 concurrent identical uploads make one document and one job, and all answers agree', async () => {
      await twentyConcurrentUploads(s);
    });

    for (const format of ['pdf', 'docx'] as const) {
      it(`a ${format.toUpperCase()} file comes out by page, with its page numbers, and is searchable`, async () => {
        const caseId = await seedCase(s.db.db);
        const bytes = await fixtureBytes('appraisal', format);
        const data = expectOk<Upload>(
          await upload({
            corpus: 'case',
            case_id: caseId,
            content_base64: b64(bytes),
            media_type: format === 'pdf' ? PDF : DOCX,
            filename: `appraisal.${format}`,
          }),
        );
        expect(data.document).toMatchObject({
          media_type: format === 'pdf' ? PDF : DOCX,
          byte_size: bytes.length,
          title: `appraisal.${format}`,
        });
        await run();
        const read = expectOk<TextData>(
          await s.call('analyst', 'document_text_get', {
            document_id: data.document.id,
            from_page: 2,
            to_page: 3,
          }),
        );
        const pages = await fixturePages('appraisal');
        expect(read.page_count).toBe(pages.length);
        expect(read.pages.map((p) => p.page)).toEqual([2, 3]);
        expect(read.pages[0]?.text).toContain('עסקאות השוואה');
        const hits = expectOk<Hits>(
          await s.call('analyst', 'search_case', { case_id: caseId, query: 'עסקאות השוואה' }),
        );
        expect(hits.items[0]).toMatchObject({ document_id: data.document.id, page: 2 });
      });
    }

    it('a style example (Markdown file, no case) is searchable with search_style', async () => {
      const md = unique(
        `# החלטה לדוגמה\n\n${new TextDecoder().decode(await fixtureBytes('decision-6091-09', 'txt'))}`,
      );
      const data = expectOk<Upload>(
        await upload({ corpus: 'style', content_base64: b64(textBytes(md)), media_type: 'text/markdown' }),
      );
      expect(data.document).toMatchObject({ corpus: 'style', case_id: null, media_type: 'text/markdown' });
      await run();
      const hits = expectOk<Hits>(
        await s.call('writer', 'search_style', { query: 'סטייה ניכרת בקו בניין צידי' }),
      );
      expect(hits.items.map((h) => h.document_id)).toContain(data.document.id);
    });

    for (const name of ['encrypted', 'broken'] as const) {
      it(`a ${name} PDF: the job is dead, the document failed with a clear error, nothing indexed`, async () => {
        const caseId = await seedCase(s.db.db);
        const data = expectOk<Upload>(
          await upload({
            corpus: 'case',
            case_id: caseId,
            content_base64: b64(await fixtureBytes(name, 'pdf')),
          }),
        );
        expect(data.document.media_type).toBe(PDF);
        const report = await run();
        expect(report.errors).toContainEqual(expect.objectContaining({ id: data.job_id, outcome: 'dead' }));
        const [job] = await jobsOf(data.document.id);
        expect(job).toMatchObject({ state: 'dead', attempt: 1 });
        const row = await docRow(data.document.id);
        expect(row?.status).toBe('failed');
        expect(row?.error).toMatch(name === 'encrypted' ? /encrypt/i : /broken|damaged|read/i);
        expect(job?.lastError).toBe(row?.error);
        const pages = await s.db.db
          .select()
          .from(documentPages)
          .where(eq(documentPages.documentId, data.document.id));
        const chunks = await s.db.db
          .select()
          .from(documentChunks)
          .where(eq(documentChunks.documentId, data.document.id));
        expect([pages.length, chunks.length]).toEqual([0, 0]);
        const text = await s.call('analyst', 'document_text_get', { document_id: data.document.id });
        expect(errorCode(text)).toBe('invalid_state');
        expect(text.ok ? null : text.error.details).toMatchObject({ status: 'failed', error: row?.error });
        const status = expectOk<{ document: { status: string; error: string } }>(
          await s.call('ceo', 'extraction_status', { document_id: data.document.id }),
        );
        expect(status.document).toMatchObject({ status: 'failed', error: row?.error });
      });
    }

    it('the kick after the upload drains the job without extraction_run', async () => {
      loop = startDrainLoop({
        db: s.db.db,
        handlers: jobHandlers,
        log: createLogger('silent'),
        intervalMs: 3_600_000,
      });
      await loop.idle();
      const caseId = await seedCase(s.db.db);
      const data = expectOk<Upload>(
        await upload({ corpus: 'case', case_id: caseId, text: unique('תשובת המשיבה') }),
      );
      await loop.idle();
      expect((await docRow(data.document.id))?.status).toBe('ready');
      expect((await jobsOf(data.document.id))[0]?.state).toBe('succeeded');
      await loop.stop();
      loop = undefined;
    });
  });
}

describeWithService('postgres', 'document_upload on the real services', () => {
  describeWithService('redis', 'document_upload concurrency [postgres + upstash kv → redis]', () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer({ db: 'postgres', kv: 'upstash' });
    });
    afterAll(async () => s?.close());

    it('20 concurrent identical uploads make one document and one job, and all answers agree', async () => {
      await twentyConcurrentUploads(s);
    });
  });
});
