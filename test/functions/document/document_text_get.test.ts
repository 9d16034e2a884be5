import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../../src/db/schema/documents.ts';
import { createDocument, extractAndIndexDocument } from '../../../src/documents/pipeline.ts';
import { fixtureBytes } from '../../fixtures/hebrew/corpus.ts';
import { seedCase, seedDocument, textBytes } from '../../harness/documents.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../../harness/server.ts';

interface TextData {
  document_id: string;
  page_count: number;
  pages: { page: number; text: string }[];
  next_page: number | null;
}

describe('document_text_get', () => {
  let s: TestServer;
  let pdfId: string;
  let longId: string;
  let bigId: string;
  const get = (args: Record<string, unknown>, agent: 'analyst' | 'ceo' = 'analyst') =>
    s.call(agent, 'document_text_get', args);

  beforeAll(async () => {
    s = await startTestServer();
    const db = s.db.db;
    const caseId = await seedCase(db);
    pdfId = (
      await seedDocument(db, { corpus: 'case', caseId, bytes: await fixtureBytes('appraisal', 'pdf') })
    ).id;
    const pages = Array.from({ length: 25 }, (_, i) => `עמוד ${i + 1}`).join('\f');
    longId = (await seedDocument(db, { corpus: 'style', caseId: null, bytes: textBytes(pages) })).id;
    const big = Array.from({ length: 3 }, (_, i) => `${'מ'.repeat(40_000)} ${i + 1}`).join('\f');
    bigId = (await seedDocument(db, { corpus: 'style', caseId: null, bytes: textBytes(big) })).id;
  });
  afterAll(async () => s?.close());

  it('returns the pages of a PDF with their numbers', async () => {
    const all = expectOk<TextData>(await get({ document_id: pdfId }));
    expect(all.page_count).toBe(3);
    expect(all.pages.map((p) => p.page)).toEqual([1, 2, 3]);
    expect(all.next_page).toBeNull();
    const two = expectOk<TextData>(await get({ document_id: pdfId, from_page: 2, to_page: 2 }));
    expect(two.pages).toHaveLength(1);
    expect(two.pages[0]?.text).toContain('עסקאות השוואה');
    expect(two.next_page).toBe(3);
  });

  it('caps a call at 20 pages and about 60,000 characters, with next_page to continue', async () => {
    const first = expectOk<TextData>(await get({ document_id: longId, to_page: 25 }));
    expect(first.pages.map((p) => p.page)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(first.next_page).toBe(21);
    const rest = expectOk<TextData>(await get({ document_id: longId, from_page: 21 }));
    expect(rest.pages.map((p) => p.text)).toEqual(['עמוד 21', 'עמוד 22', 'עמוד 23', 'עמוד 24', 'עמוד 25']);
    expect(rest.next_page).toBeNull();
    const big = expectOk<TextData>(await get({ document_id: bigId }));
    expect(big.pages.map((p) => p.page)).toEqual([1]);
    expect(big.next_page).toBe(2);
  });

  it('answers invalid_state while a document is pending and after its extraction failed', async () => {
    const pending = await createDocument(s.db.db, {
      corpus: 'style',
      caseId: null,
      bytes: textBytes('עוד לא חולץ'),
      title: 'x',
      createdBy: 't',
    });
    const env = await get({ document_id: pending.document.id });
    expect(errorCode(env)).toBe('invalid_state');
    expect(env.ok ? null : env.error.details).toMatchObject({ status: 'pending' });
    const enc = await createDocument(s.db.db, {
      corpus: 'style',
      caseId: null,
      bytes: new Uint8Array(await fixtureBytes('appeal', 'pdf')).slice(0, 2000),
      title: 'broken',
      createdBy: 't',
    });
    await extractAndIndexDocument(s.db.db, enc.document.id).catch(() => {});
    const [row] = await s.db.db.select().from(documents).where(eq(documents.id, enc.document.id));
    expect(row?.status).toBe('failed');
    const failed = await get({ document_id: enc.document.id });
    expect(errorCode(failed)).toBe('invalid_state');
    expect(failed.message).toMatch(/failed/);
  });

  it('refuses page ranges outside the document with invalid_args', async () => {
    expect(errorCode(await get({ document_id: pdfId, from_page: 4 }))).toBe('invalid_args');
    expect(errorCode(await get({ document_id: pdfId, from_page: 3, to_page: 2 }))).toBe('invalid_args');
    expect(errorCode(await get({ document_id: pdfId, from_page: 0 }))).toBe('invalid_args');
    expect(errorCode(await get({ document_id: 'not-a-uuid' }))).toBe('invalid_args');
  });

  it('answers not_found for an unknown document', async () => {
    expect(errorCode(await get({ document_id: crypto.randomUUID() }))).toBe('not_found');
  });

  it('refuses an agent without the grant (ceo) with tool_not_granted', async () => {
    expect(errorCode(await get({ document_id: pdfId }, 'ceo'))).toBe('tool_not_granted');
  });
});
