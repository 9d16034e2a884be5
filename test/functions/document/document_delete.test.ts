// document_delete on both database stacks: a case document removed is reached by no tool, its text, search
// passages, references, facts, citations and untouched claim candidates go with it, the rest of the case
// stays; a repeat (same or other reason, inside or past the replay window) answers as the first removal;
// 20 identical calls remove it once; its queued extraction skips it; uploading it again brings it back.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { document_delete } from '../../../functions/document/document_delete.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { claims } from '../../../src/db/schema/analysis.ts';
import { documentChunks, documentPages, documents } from '../../../src/db/schema/documents.ts';
import { kvEntries } from '../../../src/db/schema/kv_entries.ts';
import { citations } from '../../../src/db/schema/precedents.ts';
import {
  DB_STACKS,
  deleteCase,
  extractCase,
  forEachStack,
  seedCaseFile,
  twentyAtOnce,
} from '../../harness/analysis.ts';
import { seedDocument, textBytes } from '../../harness/documents.ts';
import { drainAll } from '../../harness/drain.ts';
import { auditMark } from '../../harness/rows.ts';
import { errorCode, expectOk, type TestServer } from '../../harness/server.ts';

type Data = ToolData<typeof document_delete>;
type Item = { document_id?: string; id?: string };

const CITING = 'ההחלטה נשענת על ע"א 1108/97 מנשה נ׳ הוועדה המקומית, ושם נקבע כי ההיטל נמדד במועד הקובע.';

forEachStack('document_delete', DB_STACKS, (server) => {
  const row = async (s: TestServer, id: string) =>
    (await s.db.db.select().from(documents).where(eq(documents.id, id)))[0];
  const items = async (s: TestServer, tool: string, args: Record<string, unknown>) =>
    expectOk<{ items: Item[] }>(await s.call('analyst', tool, args)).items;

  it('removes a document: unreachable everywhere, its extracted rows gone, the rest of the case intact', async () => {
    const s = server();
    const { caseId, docs } = await seedCaseFile(s.db.db, { names: ['appeal', 'appraisal_committee'] });
    await extractCase(s, caseId);
    const gone = docs.appraisal_committee;
    expect(await items(s, 'reference_list', { document_id: gone })).not.toEqual([]);
    const factsOf = async () =>
      expectOk<{ groups: { facts: { source: { document_id: string } }[] }[] }>(
        await s.call('analyst', 'appraiser_fact_get', { case_id: caseId }),
      ).groups.flatMap((g) => g.facts.map((f) => f.source));
    expect((await factsOf()).some((f) => f.document_id === gone)).toBe(true);
    const hitsBefore = await items(s, 'search_case', { case_id: caseId, query: 'אבי גולן שמאי הוועדה' });
    expect(hitsBefore.some((h) => h.document_id === gone)).toBe(true);
    const appealClaims = await items(s, 'claim_list', { case_id: caseId, document_id: docs.appeal });
    expect(appealClaims.length).toBeGreaterThan(0);

    const audit = await auditMark(s.db.db);
    const data = expectOk<Data>(
      await s.call('ceo', 'document_delete', { document_id: gone, reason: '  הועלה לתיק הלא נכון  ' }),
    );
    expect(data).toMatchObject({ document_id: gone, case_id: caseId, reason: 'הועלה לתיק הלא נכון' });
    const stored = await row(s, gone);
    expect(stored).toMatchObject({ status: 'deleted', error: 'הועלה לתיק הלא נכון', pageCount: null });
    expect(stored?.updatedAt.toISOString()).toBe(data.deleted_at);
    expect(await audit()).toMatchObject([{ agent: 'ceo', tool: 'document_delete', outcome: 'ok' }]);

    // Unreachable by id, and absent from every list and count.
    for (const [tool, args] of [
      ['document_text_get', { document_id: gone }],
      ['extraction_status', { document_id: gone }],
      ['reference_list', { document_id: gone }],
      ['citation_list', { document_id: gone }],
      ['document_update', { document_id: gone, title: 'שם אחר' }],
      ['document_extract', { document_id: gone }],
    ] as const) {
      expect(errorCode(await s.call('analyst', tool, args)), tool).toBe('not_found');
    }
    expect((await items(s, 'document_list', { case_id: caseId })).map((d) => d.id)).toEqual([docs.appeal]);
    const refs = await items(s, 'reference_list', { case_id: caseId });
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.some((r) => r.document_id === gone)).toBe(false);
    expect((await factsOf()).some((f) => f.document_id === gone)).toBe(false);
    const hitsAfter = await items(s, 'search_case', { case_id: caseId, query: 'אבי גולן שמאי הוועדה' });
    expect(hitsAfter.some((h) => h.document_id === gone)).toBe(false);
    const state = expectOk<{ documents: { total: number; ready: number } }>(
      await s.call('analyst', 'workflow_status', { case_id: caseId }),
    );
    expect(state.documents).toMatchObject({ total: 1, ready: 1 });
    expect(await s.db.db.select().from(documentPages).where(eq(documentPages.documentId, gone))).toEqual([]);
    expect(await s.db.db.select().from(documentChunks).where(eq(documentChunks.documentId, gone))).toEqual(
      [],
    );
    expect(await s.db.db.select().from(claims).where(eq(claims.documentId, gone))).toEqual([]);
    // Nothing else of the case is touched.
    expect(await items(s, 'claim_list', { case_id: caseId, document_id: docs.appeal })).toEqual(appealClaims);
    expect(await row(s, docs.appeal)).toMatchObject({ status: 'ready' });
  });

  it('takes the document’s citations with it', async () => {
    const s = server();
    const { caseId } = await seedCaseFile(s.db.db, { names: ['appeal'] });
    const doc = await seedDocument(s.db.db, { corpus: 'case', caseId, bytes: textBytes(CITING) });
    expectOk(await s.call('researcher', 'citation_extract', { document_id: doc.id, wait_ms: 10_000 }));
    expect(await items(s, 'citation_list', { document_id: doc.id })).not.toEqual([]);
    expectOk(await s.call('analyst', 'document_delete', { document_id: doc.id, reason: 'כפילות' }));
    expect(await s.db.db.select().from(citations).where(eq(citations.documentId, doc.id))).toEqual([]);
    expect(errorCode(await s.call('analyst', 'citation_list', { document_id: doc.id }))).toBe('not_found');
  });

  it('answers a repeat as the first removal did: replayed, another reason, past the replay window', async () => {
    const s = server();
    const { docs } = await seedCaseFile(s.db.db, { names: ['appeal'] });
    const args = { document_id: docs.appeal, reason: 'לא קריא' };
    const first = expectOk<Data>(await s.call('ceo', 'document_delete', args));
    const before = await row(s, docs.appeal);
    const again = await s.call('ceo', 'document_delete', args);
    expect(again).toMatchObject({ ok: true, replayed: true });
    expect(expectOk<Data>(again)).toEqual(first);
    const other = await s.call('analyst', 'document_delete', { ...args, reason: 'סיבה אחרת' });
    expect(expectOk<Data>(other)).toEqual(first);
    expect(other.ok ? other.message : '').toMatch(/already removed/);
    await s.db.db.delete(kvEntries);
    expect(expectOk<Data>(await s.call('ceo', 'document_delete', args))).toEqual(first);
    expect(await row(s, docs.appeal)).toEqual(before);
  });

  it('removes once under 20 identical calls at once, from two agents', async () => {
    const s = server();
    const { docs } = await seedCaseFile(s.db.db, { names: ['appeal'] });
    const answers = await twentyAtOnce(s, 'document_delete', { document_id: docs.appeal, reason: 'כפול' }, [
      'ceo',
      'analyst',
    ]);
    const data = answers.map((a) => expectOk<Data>(a));
    expect(new Set(data.map((d) => JSON.stringify(d))).size).toBe(1);
    const removedNow = answers.filter(
      (a) => a.ok && !a.replayed && /removed$/.test(a.message) && !/already/.test(a.message),
    );
    expect(removedNow).toHaveLength(1);
    expect((await row(s, docs.appeal))?.updatedAt.toISOString()).toBe(data[0]?.deleted_at);
  });

  it('is skipped by its queued extraction, and comes back when the same file is uploaded again', async () => {
    const s = server();
    const { caseId } = await seedCaseFile(s.db.db, { names: ['appeal'] });
    const upload = { corpus: 'case', case_id: caseId, text: 'פרוטוקול הדיון: הצדדים חזרו על טענותיהם.' };
    const up = expectOk<{ document: { id: string } }>(await s.call('ceo', 'document_upload', upload));
    const id = up.document.id;
    expectOk(await s.call('ceo', 'document_delete', { document_id: id, reason: 'נשלח בטעות' }));
    await drainAll(s);
    expect(await row(s, id)).toMatchObject({ status: 'deleted', pageCount: null });
    expect(await s.db.db.select().from(documentPages).where(eq(documentPages.documentId, id))).toEqual([]);
    // Past the upload's replay window, the same file again is the same document, read again.
    await s.db.db.delete(kvEntries);
    const back = expectOk<{ document: { id: string; status: string }; created: boolean }>(
      await s.call('ceo', 'document_upload', upload),
    );
    expect(back).toMatchObject({ created: true, document: { id, status: 'pending' } });
    await drainAll(s);
    expect(await row(s, id)).toMatchObject({ status: 'ready', error: null, pageCount: 1 });
  });

  it('refuses what it cannot remove: unknown, deleted case, not a case document, bad arguments', async () => {
    const s = server();
    const { caseId, docs } = await seedCaseFile(s.db.db, { names: ['appeal'] });
    const style = await seedDocument(s.db.db, {
      corpus: 'style',
      caseId: null,
      bytes: textBytes('החלטה לדוגמה'),
    });
    const call = (args: Record<string, unknown>) => s.call('ceo', 'document_delete', args);
    expect(errorCode(await call({ document_id: crypto.randomUUID(), reason: 'r' }))).toBe('not_found');
    const notCase = await call({ document_id: style.id, reason: 'r' });
    expect(errorCode(notCase)).toBe('invalid_args');
    expect(await row(s, style.id)).toMatchObject({ status: 'ready' });
    for (const args of [
      { document_id: docs.appeal },
      { document_id: docs.appeal, reason: '   ' },
      { document_id: docs.appeal, reason: 'r'.repeat(2001) },
      { document_id: 'x', reason: 'r' },
      { document_id: docs.appeal, reason: 'r', owner_ack: true },
    ]) {
      expect(errorCode(await call(args)), JSON.stringify(args).slice(0, 60)).toBe('invalid_args');
    }
    await deleteCase(s.db.db, caseId);
    expect(errorCode(await call({ document_id: docs.appeal, reason: 'r' }))).toBe('not_found');
    expect(await row(s, docs.appeal)).toMatchObject({ status: 'ready' });
  });

  it('refuses agents without the grant (tool_not_granted)', async () => {
    const s = server();
    const { docs } = await seedCaseFile(s.db.db, { names: ['appeal'] });
    for (const agent of ['researcher', 'writer', 'qa'] as const) {
      const env = await s.call(agent, 'document_delete', { document_id: docs.appeal, reason: 'r' });
      expect(errorCode(env), agent).toBe('tool_not_granted');
    }
    expect(await row(s, docs.appeal)).toMatchObject({ status: 'ready' });
  });
});
