// The search index version: a document indexed under an older normalisation is indexed again from its pages,
// after which the other spelling finds it; a current one is left alone. On both databases.
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { documentChunks, documents } from '../../src/db/schema/documents.ts';
import { analyzeQuery, SEARCH_INDEX_VERSION } from '../../src/search/normalize.ts';
import { searchChunks } from '../../src/search/rank.ts';
import { reindexStaleDocuments, staleSearchDocuments } from '../../src/search/reindex.ts';
import { forEachDb } from '../harness/databases.ts';
import { seedDocument, textBytes } from '../harness/documents.ts';

forEachDb('search: reindexing an older index', (getDb) => {
  it('indexes a stale document again, so the other spelling finds it exactly', async () => {
    const { db } = getDb();
    const doc = await seedDocument(db, {
      corpus: 'library',
      caseId: null,
      bytes: textBytes('התוכנית החדשה מאפשרת בנייה של שלוש קומות'),
      declaredMediaType: 'text/plain',
    });
    expect(doc.searchIndexVersion).toBe(SEARCH_INDEX_VERSION);
    expect(await staleSearchDocuments(db)).toBe(0);
    const find = async (q: string) =>
      (await searchChunks(db, { corpus: 'library' }, analyzeQuery(q), { limit: 5, offset: 0 })).filter(
        (h) => h.documentId === doc.id && !h.fuzzy,
      ).length;
    expect(await find('תכנית')).toBe(1);
    // An index written before the keys: the words as normalised (here without their stripped forms), no version.
    await db
      .update(documentChunks)
      .set({ terms: sql`norm_text` })
      .where(eq(documentChunks.documentId, doc.id));
    await db.update(documents).set({ searchIndexVersion: null }).where(eq(documents.id, doc.id));
    // Still found by the words as written (a query looks them up beside the keys), not by the other spelling.
    expect(await find('התוכנית')).toBe(1);
    expect(await find('התכנית')).toBe(0);
    expect(await staleSearchDocuments(db)).toBe(1);
    expect(await reindexStaleDocuments(db)).toBe(1);
    expect(await staleSearchDocuments(db)).toBe(0);
    expect(await find('תכנית')).toBe(1);
    expect(await find('בניה')).toBe(1);
    // Nothing left to do: a second run touches nothing.
    expect(await reindexStaleDocuments(db)).toBe(0);
  });
});
