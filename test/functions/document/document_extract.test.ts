// document_extract on both database stacks: a failed document read again ends failed with its reason while
// its bytes are unreadable, and ready once they can be read (a transient fault that gave up, here); one call
// reads every failed document of a case; a document not failed is skipped; 20 identical calls queue each
// document once; deleted documents and cases are not_found; callers without the grant are refused.
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { document_extract } from '../../../functions/document/document_extract.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { documentPages, documents } from '../../../src/db/schema/documents.ts';
import { jobs } from '../../../src/db/schema/jobs.ts';
import { caseFileBytes } from '../../fixtures/case_file/case_file.ts';
import { DB_STACKS, deleteCase, forEachStack, twentyAtOnce } from '../../harness/analysis.ts';
import { seedCase } from '../../harness/documents.ts';
import { drainAll } from '../../harness/drain.ts';
import { errorCode, expectOk, type TestServer } from '../../harness/server.ts';

type Data = ToolData<typeof document_extract>;

forEachStack('document_extract', DB_STACKS, (server) => {
  const row = async (s: TestServer, id: string) =>
    (await s.db.db.select().from(documents).where(eq(documents.id, id)))[0];
  const upload = async (s: TestServer, caseId: string, args: Record<string, unknown>) =>
    expectOk<{ document: { id: string } }>(
      await s.call('ceo', 'document_upload', { corpus: 'case', case_id: caseId, ...args }),
    ).document.id;

  /** A case with a broken PDF (failed: its bytes cannot be read) and a text whose reading gave up (failed). */
  async function failedCase(s: TestServer) {
    const caseId = await seedCase(s.db.db);
    const pdf = await caseFileBytes('appeal', 'pdf');
    const broken = await upload(s, caseId, {
      content_base64: Buffer.from(pdf.slice(0, 2000)).toString('base64'),
      title: 'ערר (קובץ פגום)',
    });
    const readable = await upload(s, caseId, { text: 'תגובת הוועדה המקומית לערר.', title: 'תגובה' });
    await drainAll(s);
    // As when every attempt met a transient fault: onDead marked it failed and the job is dead.
    await s.db.db.delete(documentPages).where(eq(documentPages.documentId, readable));
    await s.db.db
      .update(documents)
      .set({
        status: 'failed',
        error: 'Extraction gave up after 5 attempt(s): connection reset',
        pageCount: null,
      })
      .where(eq(documents.id, readable));
    await s.db.db
      .update(jobs)
      .set({ state: 'dead', lastError: 'connection reset' })
      .where(and(eq(jobs.kind, 'document_extract'), eq(jobs.dedupeKey, readable)));
    const reason = (await row(s, broken))?.error;
    expect((await row(s, broken))?.status).toBe('failed');
    expect(reason).toBeTruthy();
    return { caseId, broken, readable, reason };
  }

  it('reads one failed document again: failed again with its reason while its bytes cannot be read', async () => {
    const s = server();
    const { broken, reason } = await failedCase(s);
    const data = expectOk<Data>(await s.call('ceo', 'document_extract', { document_id: broken }));
    expect(data).toEqual({ requeued: [{ document_id: broken, title: 'ערר (קובץ פגום)' }], skipped: [] });
    expect(await row(s, broken)).toMatchObject({ status: 'pending', error: null });
    await drainAll(s);
    expect(await row(s, broken)).toMatchObject({ status: 'failed', error: reason });
    const text = await s.call('analyst', 'document_text_get', { document_id: broken });
    expect(errorCode(text)).toBe('invalid_state');
  });

  it('reads every failed document of a case at once: a readable one becomes ready', async () => {
    const s = server();
    const { caseId, broken, readable, reason } = await failedCase(s);
    const data = expectOk<Data>(await s.call('analyst', 'document_extract', { case_id: caseId }));
    expect(data.requeued.map((d) => d.document_id).sort()).toEqual([broken, readable].sort());
    await drainAll(s);
    expect(await row(s, readable)).toMatchObject({ status: 'ready', error: null, pageCount: 1 });
    expect(await row(s, broken)).toMatchObject({ status: 'failed', error: reason });
    const text = expectOk<{ pages: { text: string }[] }>(
      await s.call('analyst', 'document_text_get', { document_id: readable }),
    );
    expect(text.pages[0]?.text).toContain('תגובת הוועדה');
    // Nothing failed but the broken one now: a repeat queues only it.
    const again = expectOk<Data>(await s.call('analyst', 'document_extract', { case_id: caseId }));
    expect(again.requeued.map((d) => d.document_id)).toEqual([broken]);
  });

  it('skips a document that is not failed, and queues each failed one once under 20 identical calls', async () => {
    const s = server();
    const { caseId, broken, readable } = await failedCase(s);
    await drainAll(s);
    const jobsBefore = await s.db.db.select().from(jobs).where(eq(jobs.dedupeKey, broken));
    const answers = await twentyAtOnce(s, 'document_extract', { case_id: caseId }, ['ceo', 'analyst']);
    const requeued = answers.flatMap((a) => expectOk<Data>(a).requeued.map((d) => d.document_id));
    expect(requeued.sort()).toEqual([broken, readable].sort());
    const jobsAfter = await s.db.db.select().from(jobs).where(eq(jobs.dedupeKey, broken));
    expect(jobsAfter.map((j) => j.id)).toEqual(jobsBefore.map((j) => j.id));
    expect(jobsAfter[0]).toMatchObject({ state: 'pending', attempt: 0 });
    await drainAll(s);
    const ready = expectOk<Data>(await s.call('ceo', 'document_extract', { document_id: readable }));
    expect(ready).toEqual({ requeued: [], skipped: [{ document_id: readable, status: 'ready' }] });
    expect(await row(s, readable)).toMatchObject({ status: 'ready' });
  });

  it('refuses bad arguments, removed documents, deleted cases and callers without the grant', async () => {
    const s = server();
    const { caseId, broken, readable } = await failedCase(s);
    const call = (args: Record<string, unknown>, agent: 'ceo' | 'writer' | 'researcher' | 'qa' = 'ceo') =>
      s.call(agent, 'document_extract', args);
    for (const args of [{}, { document_id: broken, case_id: caseId }, { document_id: 'x' }]) {
      expect(errorCode(await call(args)), JSON.stringify(args)).toBe('invalid_args');
    }
    expect(errorCode(await call({ document_id: crypto.randomUUID() }))).toBe('not_found');
    expect(errorCode(await call({ case_id: crypto.randomUUID() }))).toBe('not_found');
    for (const agent of ['writer', 'researcher', 'qa'] as const) {
      expect(errorCode(await call({ case_id: caseId }, agent)), agent).toBe('tool_not_granted');
    }
    expectOk(await s.call('ceo', 'document_delete', { document_id: broken, reason: 'פגום' }));
    expect(errorCode(await call({ document_id: broken }))).toBe('not_found');
    const rest = expectOk<Data>(await call({ case_id: caseId }));
    expect(rest.requeued.map((d) => d.document_id)).toEqual([readable]);
    expect(await row(s, broken)).toMatchObject({ status: 'deleted' });
    await deleteCase(s.db.db, caseId);
    expect(errorCode(await call({ case_id: caseId }))).toBe('not_found');
    expect(errorCode(await call({ document_id: readable }))).toBe('not_found');
  });
});
