// Keeps the search index of every document at SEARCH_INDEX_VERSION: a document indexed under another version
// (or before versions were kept) has its chunks written again from its stored pages, as extraction writes
// them, one document per transaction. Its pages, status and everything read from them stay as they are.
// `npm start` runs it in the background after start-up and `npm run db:migrate` after migrating.
import { and, asc, eq, sql } from '../db/orm.ts';
import { documentChunks, documents } from '../db/schema/documents.ts';
import type { Db } from '../db/types.ts';
import { documentPageTexts } from '../extractors/framework.ts';
import { chunkPages } from './chunk.ts';
import { SEARCH_INDEX_VERSION } from './normalize.ts';

const BATCH = 50;
const INSERT_BATCH = 200;

const stale = and(
  eq(documents.status, 'ready'),
  sql`${documents.searchIndexVersion} is distinct from ${SEARCH_INDEX_VERSION}`,
);

/** How many ready documents are indexed under another version. */
export async function staleSearchDocuments(db: Db): Promise<number> {
  return (await db.$count(documents, stale)) as number;
}

/**
 * Indexes again, from their pages, the ready documents of another search index version (at most `limit`);
 * returns how many. Safe beside extraction: each document's row is locked, and one extracted meanwhile is
 * already current and skipped. `signal` stops it between two documents.
 */
export async function reindexStaleDocuments(
  db: Db,
  options: { limit?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const stopped = () => options.signal?.aborted === true;
  let done = 0;
  while (done < limit && !stopped()) {
    const ids = await db
      .select({ id: documents.id })
      .from(documents)
      .where(stale)
      .orderBy(asc(documents.id))
      .limit(Math.min(BATCH, limit - done));
    if (ids.length === 0) break;
    for (const { id } of ids) {
      // Stopped between documents (the server shutting down): the rest are indexed on the next start.
      if (stopped()) break;
      await db.transaction(async (tx) => {
        const [row] = await tx
          .select({ status: documents.status, version: documents.searchIndexVersion })
          .from(documents)
          .where(eq(documents.id, id))
          .for('update');
        if (row === undefined || row.status !== 'ready' || row.version === SEARCH_INDEX_VERSION) return;
        const chunks = chunkPages(await documentPageTexts(tx, id));
        await tx.delete(documentChunks).where(eq(documentChunks.documentId, id));
        for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
          await tx
            .insert(documentChunks)
            .values(chunks.slice(i, i + INSERT_BATCH).map((c) => ({ documentId: id, ...c })));
        }
        await tx
          .update(documents)
          .set({ searchIndexVersion: SEARCH_INDEX_VERSION })
          .where(eq(documents.id, id));
      });
      done++;
    }
  }
  if (done > 0) await db.execute(sql`analyze document_chunks`);
  return done;
}
