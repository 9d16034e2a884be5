// A document's index written in short transactions (src/documents/index_write.ts): a read stopped between
// two slices leaves a document no search finds, and reading it again finishes it once. On PGlite and the
// local PostgreSQL.
import { asc, count, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { documentChunks, documentPages, documents } from '../../src/db/schema/documents.ts';
import type { Db } from '../../src/db/types.ts';
import { SLICE_CHUNKS } from '../../src/documents/index_write.ts';
import { createDocument, extractAndIndexDocument } from '../../src/documents/pipeline.ts';
import { yieldToEventLoop } from '../../src/documents/yield.ts';
import { chunkPages } from '../../src/search/chunk.ts';
import { analyzeQuery } from '../../src/search/normalize.ts';
import { searchChunks } from '../../src/search/rank.ts';
import { fixturePages } from '../fixtures/hebrew/corpus.ts';
import { forEachDb } from '../harness/databases.ts';
import { seedCase, textBytes } from '../harness/documents.ts';

/** A word on the last page only, found by search once the document is ready. */
const LAST_PAGE_WORD = 'זברוניתא';

const chunkCount = async (db: Db, id: string) =>
  Number(
    (await db.select({ n: count() }).from(documentChunks).where(eq(documentChunks.documentId, id)))[0]?.n,
  );

forEachDb('documents: the index written in slices', (getDb) => {
  it('a read stopped between slices is found by no search; reading it again completes it once', async () => {
    const { db } = getDb();
    const caseId = await seedCase(db);
    const source = await fixturePages('appeal');
    const pages = Array.from({ length: 30 }, (_, i) => source[i % source.length] ?? '');
    pages.push(`${source[0] ?? ''}\n${LAST_PAGE_WORD} בעמוד האחרון`);
    const { document } = await createDocument(db, {
      corpus: 'case',
      caseId,
      bytes: textBytes(pages.join('\f')),
      title: 'מסמך ארוך',
      createdBy: 'test',
    });
    const expected = chunkPages(pages.map((p) => p.replace(/[ \t]+\n/g, '\n').trim())).length;
    // Enough slices that a stop after the first chunks is a stop in the middle.
    expect(expected).toBeGreaterThan(4 * SLICE_CHUNKS);

    // Stopped (a shutdown, a lapsed lease) as soon as the first chunks are in: the agents' queries (here, the
    // watcher's) get the connection between slices, on PGlite as on PostgreSQL.
    const stop = new AbortController();
    let reading = true;
    const run = extractAndIndexDocument(db, document.id, { signal: stop.signal }).finally(() => {
      reading = false;
    });
    const watcher = (async () => {
      while (reading && !stop.signal.aborted) {
        if ((await chunkCount(db, document.id)) > 0) stop.abort(new Error('stopped between slices'));
        await yieldToEventLoop();
      }
    })();
    await expect(run).rejects.toThrow('stopped between slices');
    await watcher;

    const [row] = await db.select().from(documents).where(eq(documents.id, document.id));
    expect(row?.status).toBe('extracting');
    const partial = await chunkCount(db, document.id);
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(expected);
    const search = () =>
      searchChunks(db, { corpus: 'case', caseId }, analyzeQuery(LAST_PAGE_WORD), { limit: 10, offset: 0 });
    const firstWords = analyzeQuery((pages[0] ?? '').split(/\s+/).slice(0, 3).join(' '));
    expect(await search()).toEqual([]);
    expect(await searchChunks(db, { corpus: 'case', caseId }, firstWords, { limit: 10, offset: 0 })).toEqual(
      [],
    );

    // Read again: every page and chunk once, and the document found.
    const result = await extractAndIndexDocument(db, document.id);
    expect(result).toMatchObject({ pages: pages.length, chunks: expected });
    const [ready] = await db.select().from(documents).where(eq(documents.id, document.id));
    expect(ready).toMatchObject({ status: 'ready', pageCount: pages.length });
    const chunks = await db
      .select({ index: documentChunks.chunkIndex })
      .from(documentChunks)
      .where(eq(documentChunks.documentId, document.id))
      .orderBy(asc(documentChunks.chunkIndex));
    expect(chunks.map((c) => c.index)).toEqual(Array.from({ length: expected }, (_, i) => i));
    const stored = await db
      .select({ page: documentPages.page })
      .from(documentPages)
      .where(eq(documentPages.documentId, document.id))
      .orderBy(asc(documentPages.page));
    expect(stored.map((p) => p.page)).toEqual(pages.map((_, i) => i + 1));
    const hits = await search();
    expect(hits.map((h) => [h.documentId, h.page])).toEqual([[document.id, pages.length]]);
    // The words of its first page, which no search found while it was half-written, are found now.
    const again = await searchChunks(db, { corpus: 'case', caseId }, firstWords, { limit: 10, offset: 0 });
    expect(again.length).toBeGreaterThan(0);
  });
});
