import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../../src/contract/limits.ts';
import { seedCase, seedDocument, seedFixtures, textBytes } from '../../harness/documents.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../../harness/server.ts';

interface Hit {
  document_id: string;
  title: string;
  page: number;
  chunk: number;
  score: number;
  snippet: string;
  fuzzy: boolean;
  case_id: string;
}
interface Hits {
  items: Hit[];
  limit: number;
  next_cursor: string | null;
  query_terms: string[];
}

describe('search_case', () => {
  let s: TestServer;
  let caseId: string;
  let ids: Map<string, string>;
  let otherCase: string;
  const search = (args: Record<string, unknown>, agent: 'analyst' | 'ceo' = 'analyst') =>
    s.call(agent, 'search_case', args);

  beforeAll(async () => {
    s = await startTestServer();
    caseId = await seedCase(s.db.db, 'היטל השבחה — הרצל 12');
    ids = await seedFixtures(s.db.db, { format: 'pdf', caseId });
    otherCase = await seedCase(s.db.db);
    await seedDocument(s.db.db, {
      corpus: 'case',
      caseId: otherCase,
      bytes: textBytes('עסקאות השוואה בתיק אחר'),
    });
  });
  afterAll(async () => s?.close());

  it('finds the passage with document, page, chunk, score and a highlighted snippet', async () => {
    const data = expectOk<Hits>(await search({ case_id: caseId, query: 'עִסְקָאוֹת השוואה' }));
    const top = data.items[0];
    expect(top).toMatchObject({
      document_id: ids.get('appraisal'),
      page: 2,
      title: 'חוות דעת שמאי מכריע — דוד אלמוג',
    });
    expect(top?.snippet).toContain('«עסקאות»');
    expect(top?.snippet).toContain('«השוואה»');
    expect(top?.score).toBeGreaterThan(0);
    expect(data.query_terms).toEqual(['עסקאות', 'השוואה']);
    expect(data.items.every((h) => !h.fuzzy)).toBe(true);
    // Scores are non-increasing: best first.
    const scores = data.items.map((h) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    // Only this case's documents.
    const mine = new Set(ids.values());
    expect(data.items.every((h) => mine.has(h.document_id))).toBe(true);
  });

  it('marks hits found only through similar spellings, and echoes the words as written', async () => {
    const data = expectOk<Hits>(await search({ case_id: caseId, query: 'עיסקאות השוויה' }));
    expect(data.items.length).toBeGreaterThan(0);
    expect(data.items.every((h) => h.fuzzy)).toBe(true);
    expect(data.items[0]?.document_id).toBe(ids.get('appraisal'));
    expect(data.query_terms).toEqual(['עיסקאות', 'השוויה']);
    // A defective spelling (השואה for השוואה) is the same word, found exactly, not through the fallback.
    const defective = expectOk<Hits>(await search({ case_id: caseId, query: 'עסקאות השואה' }));
    expect(defective.items[0]?.document_id).toBe(ids.get('appraisal'));
    expect(defective.items.every((h) => !h.fuzzy)).toBe(true);
    expect(defective.query_terms).toEqual(['עסקאות', 'השואה']);
    const finals = expectOk<Hits>(await search({ case_id: caseId, query: 'והשמאים המכריעים' }));
    expect(finals.query_terms).toEqual(['והשמאים', 'המכריעים']);
  });

  it('pages with limit and cursor in a stable order, without repeats', async () => {
    const all = expectOk<Hits>(await search({ case_id: caseId, query: 'היטל השבחה', limit: 50 }));
    expect(all.items.length).toBeGreaterThan(3);
    const walked: string[] = [];
    let cursor: string | undefined;
    do {
      const p = expectOk<Hits>(
        await search({ case_id: caseId, query: 'היטל השבחה', limit: 2, ...(cursor ? { cursor } : {}) }),
      );
      walked.push(...p.items.map((h) => `${h.document_id}:${h.chunk}`));
      cursor = p.next_cursor ?? undefined;
    } while (cursor !== undefined);
    expect(walked).toEqual(all.items.map((h) => `${h.document_id}:${h.chunk}`));
  });

  it('refuses a cursor issued for another query or tool with invalid_args', async () => {
    const p = expectOk<Hits>(await search({ case_id: caseId, query: 'היטל השבחה', limit: 1 }));
    expect(p.next_cursor).not.toBeNull();
    expect(errorCode(await search({ case_id: caseId, query: 'זיקת הנאה', cursor: p.next_cursor }))).toBe(
      'invalid_args',
    );
    expect(
      errorCode(
        await search({
          case_id: caseId,
          query: 'היטל',
          cursor: encodeCursor('search_style', { query: 'היטל' }, [1]),
        }),
      ),
    ).toBe('invalid_args');
  });

  it('says "empty" when nothing matches', async () => {
    const env = await search({ case_id: caseId, query: 'xyzzy plugh' });
    expect(env.status).toBe('empty');
    expect(expectOk<Hits>(env).items).toEqual([]);
  });

  it('refuses a query without words and a missing case_id with invalid_args', async () => {
    expect(errorCode(await search({ case_id: caseId, query: '?! ״' }))).toBe('invalid_args');
    expect(errorCode(await search({ query: 'היטל' }))).toBe('invalid_args');
  });

  it('answers not_found for an unknown case', async () => {
    expect(errorCode(await search({ case_id: crypto.randomUUID(), query: 'היטל' }))).toBe('not_found');
  });

  it('refuses an agent without the grant (ceo) with tool_not_granted', async () => {
    expect(errorCode(await search({ case_id: caseId, query: 'היטל' }, 'ceo'))).toBe('tool_not_granted');
  });
});
