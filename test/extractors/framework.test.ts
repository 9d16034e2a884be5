// The extractor framework end to end through /mcp, with a fixture extractor that records every «ערר» with its
// page and offsets: one job per document and version, wait_ms, re-runs that add nothing, a dead job revived,
// the targets a call may name (and the refusals), and the follow-up that queues it once a text is ready.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { toolList } from '../../functions/index.ts';
import { defineTool } from '../../src/contract/define.ts';
import { jobs } from '../../src/db/schema/jobs.ts';
import type { DbOrTx } from '../../src/db/types.ts';
import { DOCUMENT_EXTRACT, documentExtractJob } from '../../src/documents/extract_job.ts';
import { createDocument } from '../../src/documents/pipeline.ts';
import {
  documentPageTexts,
  type Extractor,
  extractorFollowUp,
  extractorJob,
} from '../../src/extractors/framework.ts';
import {
  extractionNext,
  extractionOutput,
  extractionTargets,
  runExtraction,
  waitMsInput,
} from '../../src/extractors/tool.ts';
import { seedCase, seedDocument, textBytes } from '../harness/documents.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../harness/server.ts';

const WORD = 'ערר';

const probe: Extractor = {
  kind: 'probe_extract',
  version: 'probe@1',
  accepts: (d) => d.corpus === 'case',
  async run(tx: DbOrTx, document, pages) {
    await tx.execute(sql`delete from probe_words where document_id = ${document.id}`);
    for (const [i, text] of pages.entries()) {
      for (let at = text.indexOf(WORD); at >= 0; at = text.indexOf(WORD, at + 1)) {
        await tx.execute(
          sql`insert into probe_words values (${document.id}, ${i + 1}, ${at}, ${at + WORD.length}, ${probe.version})`,
        );
      }
    }
  },
};

const count = async (db: DbOrTx, documentId?: string) => {
  const r = await db.execute(
    documentId === undefined
      ? sql`select count(*)::int as n from probe_words`
      : sql`select count(*)::int as n from probe_words where document_id = ${documentId}`,
  );
  return (r as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
};

const probe_extract = defineTool({
  name: 'probe_extract',
  description: 'Test fixture: records every occurrence of a word in a case document, as an extractor would.',
  input: {
    document_id: z.uuid().optional().describe('One document'),
    case_id: z.uuid().optional().describe('Every document of a case'),
    wait_ms: waitMsInput,
  },
  output: extractionOutput(z.object({ words: z.int() })),
  mutates: 'write',
  readCounterpart: 'probe_count_get',
  idempotencyKey: { describe: 'the target', of: (i) => `${i.document_id}:${i.case_id}` },
  setSemantics: true,
  async run({ ctx, input }) {
    const targets = await extractionTargets(ctx, probe, input, 'case documents');
    const run = await runExtraction(ctx, probe, targets.documents, input.wait_ms ?? 0);
    let words = 0;
    for (const d of targets.documents) words += await count(ctx.db, d.id);
    return {
      ...run,
      skipped: targets.skipped,
      summary: run.done ? { words } : null,
      next: extractionNext(ctx, {
        done: run.done,
        failed: run.jobs.some((j) => j.state === 'dead'),
        readTool: 'probe_count_get',
      }),
    };
  },
});

const probe_count_get = defineTool({
  name: 'probe_count_get',
  description: 'Test fixture: how many occurrences the probe extractor recorded for a document.',
  input: { document_id: z.uuid().describe('The document') },
  output: z.object({ words: z.int() }),
  mutates: false,
  async run({ ctx, input }) {
    return { words: await count(ctx.db, input.document_id) };
  },
});

describe('the extractor framework', () => {
  let s: TestServer;
  let caseId = '';
  const extract = (args: Record<string, unknown>) => s.call('analyst', 'probe_extract', args);
  type Result = z.output<ReturnType<typeof extractionOutput<z.ZodObject<{ words: z.ZodInt }>>>>;

  beforeAll(async () => {
    s = await startTestServer({
      tools: [...toolList, probe_extract, probe_count_get],
      grants: { analyst: ['probe_extract', 'probe_count_get'] },
      jobHandlers: { [probe.kind]: extractorJob(probe) },
    });
    await s.db.db.execute(
      sql`create table probe_words (document_id uuid, page int, start int, "end" int, version text)`,
    );
    caseId = await seedCase(s.db.db);
  });
  afterAll(async () => s?.close());

  const caseDoc = async (text: string) =>
    (await seedDocument(s.db.db, { corpus: 'case', caseId, bytes: textBytes(text) })).id;

  it('runs within wait_ms and records candidates whose offsets point into the page text', async () => {
    const id = await caseDoc(`ערר 1/25\fעמוד שני: הערר נדחה, ערר נוסף ${crypto.randomUUID()}`);
    const data = expectOk<Result>(await extract({ document_id: id, wait_ms: 5000 }));
    expect(data.done).toBe(true);
    expect(data.jobs).toEqual([
      { job_id: expect.any(String), document_id: id, state: 'succeeded', error: null },
    ]);
    expect(data.summary).toEqual({ words: 3 });
    expect(data.next).toContain('probe_count_get');
    const pages = await documentPageTexts(s.db.db, id);
    const rows = await s.db.db.execute(
      sql`select page, start, "end" from probe_words where document_id = ${id}`,
    );
    for (const r of (rows as unknown as { rows: { page: number; start: number; end: number }[] }).rows) {
      expect(pages[r.page - 1]?.slice(r.start, r.end)).toBe(WORD);
    }
  });

  it('a second call adds nothing: the same job, already done, and the same rows', async () => {
    const id = await caseDoc(`ערר ${crypto.randomUUID()}`);
    const first = expectOk<Result>(await extract({ document_id: id, wait_ms: 5000 }));
    const again = expectOk<Result>(await extract({ document_id: id }));
    expect(again.jobs[0]?.job_id).toBe(first.jobs[0]?.job_id);
    expect(again.done).toBe(true);
    expect(await count(s.db.db, id)).toBe(1);
    expect((await s.db.db.select().from(jobs).where(eq(jobs.kind, probe.kind))).length).toBeGreaterThan(0);
  });

  it('without wait_ms answers at once with the queued job; a later call with wait_ms finishes it', async () => {
    const id = await caseDoc(`ערר ${crypto.randomUUID()}`);
    const queued = expectOk<Result>(await extract({ document_id: id }));
    expect(queued.done).toBe(false);
    expect(queued.summary).toBeNull();
    expect(queued.jobs[0]?.state).toBe('pending');
    expect(queued.next).toMatch(/background/);
    const done = expectOk<Result>(await extract({ document_id: id, wait_ms: 5000 }));
    expect(done.jobs[0]?.job_id).toBe(queued.jobs[0]?.job_id);
    expect(done.summary).toEqual({ words: 1 });
  });

  it('revives a job that went dead, as a retry', async () => {
    const id = await caseDoc(`ערר ${crypto.randomUUID()}`);
    const first = expectOk<Result>(await extract({ document_id: id }));
    const jobId = first.jobs[0]?.job_id as string;
    await s.db.db
      .update(jobs)
      .set({ state: 'dead', attempt: 5, lastError: 'gave up' })
      .where(eq(jobs.id, jobId));
    const retried = expectOk<Result>(await extract({ document_id: id, wait_ms: 5000 }));
    expect(retried.jobs[0]).toMatchObject({ job_id: jobId, state: 'succeeded' });
    const [row] = await s.db.db.select().from(jobs).where(eq(jobs.id, jobId));
    expect(row).toMatchObject({ attempt: 1, lastError: null });
  });

  it('targets a case’s ready documents, listing those whose text is not extracted yet', async () => {
    const other = await seedCase(s.db.db);
    const ready = (await seedDocument(s.db.db, { corpus: 'case', caseId: other, bytes: textBytes('ערר א') }))
      .id;
    const { document } = await createDocument(s.db.db, {
      corpus: 'case',
      caseId: other,
      bytes: textBytes(`ערר ב ${crypto.randomUUID()}`),
      title: 'ממתין',
      createdBy: 'test',
    });
    const data = expectOk<Result>(await extract({ case_id: other, wait_ms: 5000 }));
    expect(data.jobs.map((j) => j.document_id)).toEqual([ready]);
    expect(data.skipped).toEqual([{ document_id: document.id, status: 'pending' }]);
  });

  it('refuses what it cannot extract: invalid_state before the text exists, invalid_args for the rest', async () => {
    const { document } = await createDocument(s.db.db, {
      corpus: 'case',
      caseId,
      bytes: textBytes(`ממתין ${crypto.randomUUID()}`),
      title: 'ממתין',
      createdBy: 'test',
    });
    const pending = await extract({ document_id: document.id });
    expect(errorCode(pending)).toBe('invalid_state');
    expect(pending.ok ? '' : pending.error.hint).toMatch(/extraction_status/);
    const style = await seedDocument(s.db.db, { corpus: 'style', caseId: null, bytes: textBytes('דוגמה') });
    expect(errorCode(await extract({ document_id: style.id }))).toBe('invalid_args');
    expect(errorCode(await extract({}))).toBe('invalid_args');
    expect(errorCode(await extract({ document_id: style.id, case_id: caseId }))).toBe('invalid_args');
    expect(errorCode(await extract({ case_id: await seedCase(s.db.db) }))).toBe('invalid_state');
    expect(errorCode(await extract({ document_id: crypto.randomUUID() }))).toBe('not_found');
    expect(errorCode(await extract({ document_id: document.id, wait_ms: 10_001 }))).toBe('invalid_args');
  });

  it('is queued by the text job once a document it reads is ready, in that transaction', async () => {
    const handler = documentExtractJob([extractorFollowUp(probe)]);
    const { document } = await createDocument(s.db.db, {
      corpus: 'case',
      caseId,
      bytes: textBytes(`ערר ${crypto.randomUUID()}`),
      title: 'חדש',
      createdBy: 'test',
    });
    const style = await createDocument(s.db.db, {
      corpus: 'style',
      caseId: null,
      bytes: textBytes(`דוגמה ${crypto.randomUUID()}`),
      title: 'סגנון',
      createdBy: 'test',
    });
    for (const id of [document.id, style.document.id]) {
      await handler(
        {
          id: crypto.randomUUID(),
          kind: DOCUMENT_EXTRACT,
          attempt: 1,
          maxAttempts: 5,
          payload: { document_id: id },
          subject: null,
        },
        {
          db: s.db.db,
          log: { info() {}, warn() {}, error() {} },
          now: () => new Date(),
          signal: new AbortController().signal,
        },
      );
    }
    const queued = await s.db.db.select().from(jobs).where(eq(jobs.kind, probe.kind));
    expect(queued.map((j) => j.subject)).toContain(`document:${document.id}`);
    expect(queued.map((j) => j.subject)).not.toContain(`document:${style.document.id}`);
  });
});
