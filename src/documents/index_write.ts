// Writing a document's text and search index in bounded slices. On PGlite (one connection) a transaction
// holds every other query for as long as it runs; a 60-page document's pages, chunks and vocabulary in one
// transaction held the agents' queries for a quarter of a second. Here each slice is a short transaction of
// its own, with a turn of the event loop between them, so the agents' queries interleave. Correctness comes
// from the document's status, not from one transaction: the document stays `extracting` (invisible to
// search, to readers of its text and to the extractors) until the last short transaction checks that every
// slice is in and makes it ready. Slices are upserts keyed as the tables are (page; chunk index), and what
// lies beyond this run's last page or chunk is deleted first, so a run interrupted between slices (a crash,
// a shutdown, a lapsed lease) is finished by running it again, with no duplicate and nothing half-visible.
import { and, count, eq, gt, gte, sql } from '../db/orm.ts';
import {
  DELETED_DOCUMENT,
  documentChunks,
  documentPages,
  documents,
  searchTerms,
} from '../db/schema/documents.ts';
import type { Db, DbOrTx } from '../db/types.ts';
import type { Chunk } from '../search/chunk.ts';
import { yieldToEventLoop } from './yield.ts';

/** Rows per short transaction: each slice holds the connection for a few milliseconds. */
export const SLICE_PAGES = 10;
export const SLICE_CHUNKS = 8;
export const SLICE_TERMS = 250;

/** A page row as the text path stores it (OCR fills the pending ones later). */
export interface PageRow {
  page: number;
  text: string;
  ocrState: 'pending' | null;
}

export interface IndexContent {
  /** The pages to store (1..n, all of them); null when they are stored already (OCR's last page). */
  pages: readonly PageRow[] | null;
  chunks: readonly Chunk[];
  /** The vocabulary for the fuzzy fallback (shared by all documents; sorted, so slices lock in one order). */
  terms: readonly string[];
}

export interface SliceOptions {
  now: () => Date;
  /**
   * True for the text path: the run takes the document over (a `ready` one read again goes back to
   * `extracting` for the duration). False for OCR's last page: the document must still be `extracting`.
   */
  claim: boolean;
  /** Checked before each slice: an aborted run stops between slices, the document left `extracting`. */
  signal?: AbortSignal;
}

/** How a sliced write ended: finished (`finish` ran), the document removed meanwhile, or moved on. */
export type SliceOutcome = 'finished' | 'removed' | 'moved_on';

/** Locks the document row for the rest of the transaction; its status, or undefined when gone. */
export async function lockStatus(tx: DbOrTx, documentId: string): Promise<string | undefined> {
  const [row] = await tx
    .select({ status: documents.status })
    .from(documents)
    .where(eq(documents.id, documentId))
    .for('update');
  return row?.status;
}

function slices<T>(rows: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/**
 * Writes `content` for the document in short transactions, then runs `finish` in a last short one, once it
 * has checked, under the document's row lock, that the document is still `extracting` and that every page
 * and chunk is in. `finish` makes the document visible (ready, or waiting for OCR) and queues what follows.
 * A document removed (document_delete) or finished by a concurrent run of the same bytes stops the write.
 */
export async function writeIndexInSlices(
  db: Db,
  documentId: string,
  content: IndexContent,
  options: SliceOptions,
  finish: (tx: DbOrTx) => Promise<void>,
): Promise<SliceOutcome> {
  const { pages, chunks, terms } = content;
  const steps: ((tx: DbOrTx) => Promise<unknown>)[] = [
    ...slices(pages ?? [], SLICE_PAGES).map(
      (batch) => (tx: DbOrTx) =>
        tx
          .insert(documentPages)
          .values(batch.map((p) => ({ documentId, ...p, ocrConfidence: null })))
          .onConflictDoUpdate({
            target: [documentPages.documentId, documentPages.page],
            set: {
              text: sql`excluded.text`,
              ocrState: sql`excluded.ocr_state`,
              ocrConfidence: sql`excluded.ocr_confidence`,
            },
          }),
    ),
    ...slices(chunks, SLICE_CHUNKS).map(
      (batch) => (tx: DbOrTx) =>
        tx
          .insert(documentChunks)
          .values(batch.map((c) => ({ documentId, ...c })))
          .onConflictDoUpdate({
            target: [documentChunks.documentId, documentChunks.chunkIndex],
            set: {
              page: sql`excluded.page`,
              text: sql`excluded.text`,
              normText: sql`excluded.norm_text`,
              terms: sql`excluded.terms`,
            },
          }),
    ),
    ...slices(terms, SLICE_TERMS).map(
      (batch) => (tx: DbOrTx) =>
        tx
          .insert(searchTerms)
          .values(batch.map((term) => ({ term })))
          .onConflictDoNothing(),
    ),
  ];
  // First: take the document (or check it is still being read), and drop what lies past this run's end.
  const first = await db.transaction(async (tx): Promise<SliceOutcome | null> => {
    const status = await lockStatus(tx, documentId);
    if (status === undefined || status === DELETED_DOCUMENT) return 'removed';
    if (status !== 'extracting') {
      if (!options.claim) return 'moved_on';
      await tx
        .update(documents)
        .set({ status: 'extracting', updatedAt: options.now() })
        .where(eq(documents.id, documentId));
    }
    if (pages !== null) {
      await tx
        .delete(documentPages)
        .where(and(eq(documentPages.documentId, documentId), gt(documentPages.page, pages.length)));
    }
    await tx
      .delete(documentChunks)
      .where(and(eq(documentChunks.documentId, documentId), gte(documentChunks.chunkIndex, chunks.length)));
    return null;
  });
  if (first !== null) return first;
  // Finished by a concurrent run of the same bytes (or failed by one): this run has nothing to add.
  const written = await writeInSlices(db, documentId, steps, {
    proceed: (status) => status === 'extracting',
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (written !== 'finished') return written;
  options.signal?.throwIfAborted();
  await yieldToEventLoop();
  return db.transaction(async (tx): Promise<SliceOutcome> => {
    const status = await lockStatus(tx, documentId);
    if (status === undefined || status === DELETED_DOCUMENT) return 'removed';
    if (status !== 'extracting') return 'moved_on';
    const expectedPages = pages?.length;
    const [stored] = await tx
      .select({ chunks: count() })
      .from(documentChunks)
      .where(eq(documentChunks.documentId, documentId));
    const [storedPages] =
      expectedPages === undefined
        ? [undefined]
        : await tx
            .select({ pages: count() })
            .from(documentPages)
            .where(eq(documentPages.documentId, documentId));
    // Only a removal or a failure deletes rows under a run, and both change the status: this is a guard.
    if (
      stored?.chunks !== chunks.length ||
      (storedPages !== undefined && storedPages.pages !== expectedPages)
    ) {
      throw new Error(`document ${documentId}: its index slices are not all in; the read runs again`);
    }
    await finish(tx);
    return 'finished';
  });
}

/**
 * Runs each step in a short transaction of its own, the document row locked, after a turn of the event loop
 * (the agents' queries waiting for the connection get it in between), while `proceed` accepts the document's
 * status. Stops with 'removed' when the document is gone or deleted, 'moved_on' when `proceed` refuses its
 * status, and at an aborted `signal` (throwing its reason). The steps must be upserts a re-run writes again
 * the same: a run stopped between them is finished by running it again.
 */
export async function writeInSlices(
  db: Db,
  documentId: string,
  steps: readonly ((tx: DbOrTx) => Promise<unknown>)[],
  options: { proceed: (status: string) => boolean; signal?: AbortSignal },
): Promise<SliceOutcome> {
  for (const step of steps) {
    options.signal?.throwIfAborted();
    await yieldToEventLoop();
    const outcome = await db.transaction(async (tx): Promise<SliceOutcome | null> => {
      const status = await lockStatus(tx, documentId);
      if (status === undefined || status === DELETED_DOCUMENT) return 'removed';
      if (!options.proceed(status)) return 'moved_on';
      await step(tx);
      return null;
    });
    if (outcome !== null) return outcome;
  }
  return 'finished';
}
