import { sha256Hex } from '../contract/hash.ts';
import { and, eq, sql } from '../db/orm.ts';
import type { DocumentRole } from '../db/schema/documents.ts';
import {
  DELETED_DOCUMENT,
  type DocumentCorpus,
  type DocumentRow,
  documentChunks,
  documentPages,
  documents,
} from '../db/schema/documents.ts';
import type { Db, DbOrTx } from '../db/types.ts';
import { tokens } from '../hebrew/text.ts';
import type { Logger } from '../log.ts';
import { chunkPages } from '../search/chunk.ts';
import { SEARCH_INDEX_VERSION } from '../search/normalize.ts';
import { readDocumentBlob, writeDocumentBlob } from './blobs.ts';
import { ExtractionError } from './errors.ts';
import { type PageRow, type SliceOutcome, writeIndexInSlices } from './index_write.ts';
import { resolveMediaType } from './media.ts';
import { inlineReader, type PageReader } from './reader.ts';

export interface DocumentMetadata {
  title: string;
  filename?: string | null;
  /** internal/library: e.g. "ערר 6091/09", "ע"א 1108/97". */
  number?: string | null;
  /** internal/library: YYYY-MM-DD. */
  decisionDate?: string | null;
  /** library: the court. */
  court?: string | null;
  /** internal: the committee. */
  committee?: string | null;
  parties?: string | null;
  /** case: the role an agent gave (role_source "given"); without one it is detected once the text exists. */
  role?: DocumentRole | null;
}

export interface NewDocument extends DocumentMetadata {
  corpus: DocumentCorpus;
  /** Required for corpus "case", null otherwise (the caller checks the case is reachable first). */
  caseId: string | null;
  bytes: Uint8Array;
  /** The content type the caller declared, if any; the magic bytes decide (see resolveMediaType). */
  declaredMediaType?: string | null;
  createdBy: string;
}

/**
 * Creates the document row and stores its bytes, status "pending", idempotent on (corpus, case_id,
 * sha256): the same bytes again return the existing row with created = false (its metadata unchanged).
 * Throws ToolError payload_too_large / unsupported_media_type before anything is written. Run it in the
 * same transaction as the enqueue of the extraction job, and enqueue only when `created` is true.
 */
export async function createDocument(
  db: DbOrTx,
  input: NewDocument,
  options: { now?: () => Date } = {},
): Promise<{ document: DocumentRow; created: boolean }> {
  if ((input.corpus === 'case') !== (input.caseId !== null)) {
    throw new Error(`corpus ${input.corpus} ${input.corpus === 'case' ? 'needs' : 'takes no'} case_id`);
  }
  const mediaType = resolveMediaType(input.bytes, input.declaredMediaType);
  const sha256 = sha256Hex(input.bytes as Uint8Array<ArrayBuffer>);
  const now = options.now?.() ?? new Date();
  const fields: typeof documents.$inferInsert = {
    id: crypto.randomUUID(),
    corpus: input.corpus,
    caseId: input.caseId,
    sha256,
    mediaType,
    byteSize: input.bytes.length,
    filename: input.filename ?? null,
    title: input.title,
    number: input.number ?? null,
    decisionDate: input.decisionDate ?? null,
    court: input.court ?? null,
    committee: input.committee ?? null,
    parties: input.parties ?? null,
    role: input.role ?? null,
    roleSource: input.role == null ? null : 'given',
    createdBy: input.createdBy,
    createdAt: now,
    updatedAt: now,
  };
  const inserted = await db
    .insert(documents)
    .values(fields)
    .onConflictDoNothing({ target: [documents.corpus, documents.caseId, documents.sha256] })
    .returning();
  const row = inserted[0];
  if (row !== undefined) {
    await writeDocumentBlob(db, row.id, input.bytes);
    return { document: row, created: true };
  }
  // The conflict target treats null case_ids as equal (NULLS NOT DISTINCT), so this finds the one row.
  const existing = await db
    .select()
    .from(documents)
    .where(
      sql`${documents.corpus} = ${input.corpus} and ${documents.caseId} is not distinct from ${input.caseId} and ${documents.sha256} = ${sha256}`,
    )
    .limit(1);
  const found = existing[0];
  if (found === undefined) throw new Error('document conflict without a row (deleted concurrently?)');
  if (found.status === DELETED_DOCUMENT) {
    // Removed by document_delete and uploaded again: the same row comes back as a new upload (its bytes
    // are these), to be read again; the caller queues its extraction as for any created document.
    const [revived] = await db
      .update(documents)
      .set({
        ...fields,
        id: found.id,
        createdAt: found.createdAt,
        status: 'pending',
        error: null,
        pageCount: null,
        ocrPageCount: null,
        unreadablePages: null,
        extractedAt: null,
      })
      .where(and(eq(documents.id, found.id), eq(documents.status, DELETED_DOCUMENT)))
      .returning();
    if (revived !== undefined) return { document: revived, created: true };
  }
  return { document: found, created: false };
}

export interface ExtractOptions {
  now?: () => Date;
  log?: Pick<Logger, 'info' | 'warn'>;
  /**
   * Runs in the transaction that makes the document `ready`: the place to queue the work that reads its text
   * (rule-based extractors), so that work is queued exactly when the text exists.
   */
  onReady?: (tx: DbOrTx, document: ReadyDocument) => Promise<void>;
  /**
   * Runs in the transaction that stores a document's text-layer pages when some pages need OCR: the place to
   * queue one OCR job per page. The document stays `extracting` until the last of them finishes (finishDocument).
   */
  onOcrPages?: (tx: DbOrTx, documentId: string, pages: readonly number[]) => Promise<void>;
  /** Where the bytes are parsed (default in-line; `npm start` gives its pool of reader threads). */
  reader?: PageReader;
  /** Ends the read (shutdown, a lapsed lease); the document stays as it was, for the next attempt. */
  signal?: AbortSignal;
}

/** A document whose text was just extracted, as follow-up work sees it. */
export interface ReadyDocument {
  id: string;
  corpus: DocumentCorpus;
  caseId: string | null;
  pageCount: number;
}

export interface ExtractResult {
  documentId: string;
  pages: number;
  chunks: number;
  /** Pages left for OCR (their jobs queued); the document is ready once they are read. */
  ocrPages?: number;
}

/** Locks the document row; true when document_delete removed it while its text was being read. */
async function removedMeanwhile(tx: DbOrTx, documentId: string): Promise<boolean> {
  const [row] = await tx
    .select({ status: documents.status })
    .from(documents)
    .where(eq(documents.id, documentId))
    .for('update');
  return row?.status === DELETED_DOCUMENT;
}

/**
 * Reads the stored bytes, extracts text per page (through `reader`), chunks and normalises it, and replaces
 * the document's pages and chunks in short transactions (index_write.ts), the last of which sets status
 * "ready": until then the document is `extracting`, seen by no search. Running it twice, or again after it
 * stopped between slices, leaves the same pages and chunks (upserts; what lies past its end is deleted). When the bytes cannot be
 * extracted (encrypted, broken, no text, too big) it sets status "failed" with the error, removes any
 * pages/chunks, and throws an ExtractionError with `permanent: true`. Any other error is transient (the
 * document stays as it was): let the queue retry it.
 */
export async function extractAndIndexDocument(
  db: Db,
  documentId: string,
  options: ExtractOptions = {},
): Promise<ExtractResult> {
  const now = options.now ?? (() => new Date());
  const reader = options.reader ?? inlineReader;
  const [doc] = await db
    .select({ mediaType: documents.mediaType, status: documents.status })
    .from(documents)
    .where(eq(documents.id, documentId))
    .limit(1);
  const missing = () =>
    new ExtractionError('document_missing', `No document ${documentId} (deleted?); nothing to extract`);
  if (doc === undefined) throw missing();
  // A document removed by document_delete is not read again: its job ends without touching it.
  if (doc.status === DELETED_DOCUMENT) return { documentId, pages: 0, chunks: 0 };
  if (doc.status === 'pending' || doc.status === 'failed') {
    await db
      .update(documents)
      .set({ status: 'extracting', updatedAt: now() })
      .where(eq(documents.id, documentId));
  }
  const bytes = await readDocumentBlob(db, documentId);
  if (bytes === null) throw missing();
  let pages: string[];
  let ocrPages: number[];
  try {
    // No transaction and no connection is held while the bytes are read: on PGlite (one connection) every
    // other call waits for whatever holds it, so only the writes below take it.
    ({ pages, ocrPages } = await reader.read(
      bytes,
      doc.mediaType,
      options.signal ? { signal: options.signal } : {},
    ));
  } catch (e) {
    if (!(e instanceof ExtractionError) || !e.permanent) throw e;
    const removed = await db.transaction(async (tx) => {
      if (await removedMeanwhile(tx, documentId)) return true;
      await failDocument(tx, documentId, e.message, now());
      return false;
    });
    if (removed) return { documentId, pages: 0, chunks: 0 };
    options.log?.warn('document extraction failed', {
      document_id: documentId,
      failure: e.failure,
      error: e.message,
    });
    throw e;
  }
  const ocr = new Set(ocrPages);
  const rows: PageRow[] = pages.map((text, i) => ({
    page: i + 1,
    text,
    ocrState: ocr.has(i + 1) ? ('pending' as const) : null,
  }));
  let chunks = 0;
  let outcome: SliceOutcome;
  if (ocr.size > 0) {
    // The text-layer pages now, in slices; the document waits `extracting` for its OCR jobs.
    outcome = await writeIndexInSlices(
      db,
      documentId,
      { pages: rows, chunks: [], terms: [] },
      { now, claim: true, ...(options.signal ? { signal: options.signal } : {}) },
      async (tx) => {
        await tx
          .update(documents)
          .set({ status: 'extracting', error: null, pageCount: pages.length, updatedAt: now() })
          .where(eq(documents.id, documentId));
        if (options.onOcrPages === undefined) throw new Error('pages need OCR but no OCR jobs are queued');
        await options.onOcrPages(tx, documentId, ocrPages);
      },
    );
  } else {
    const written = await indexDocument(db, documentId, pages, {
      now,
      onReady: options.onReady,
      rows,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    outcome = written.outcome;
    chunks = written.chunks;
  }
  const removed = outcome === 'removed';
  if (removed) return { documentId, pages: 0, chunks: 0 };
  if (ocr.size > 0) {
    options.log?.info('document text layer read; pages queued for OCR', {
      document_id: documentId,
      pages: pages.length,
      ocr_pages: ocr.size,
    });
    return { documentId, pages: pages.length, chunks: 0, ocrPages: ocr.size };
  }
  options.log?.info('document extracted', {
    document_id: documentId,
    pages: pages.length,
    chunks,
  });
  return { documentId, pages: pages.length, chunks };
}

/** A document that cannot be read: `failed` with the reason, its pages and chunks removed. */
export async function failDocument(tx: DbOrTx, documentId: string, error: string, now: Date): Promise<void> {
  await tx.delete(documentChunks).where(eq(documentChunks.documentId, documentId));
  await tx.delete(documentPages).where(eq(documentPages.documentId, documentId));
  await tx
    .update(documents)
    .set({ status: 'failed', error, pageCount: null, updatedAt: now, extractedAt: now })
    .where(eq(documents.id, documentId));
}

/** A document's chunks and its vocabulary for the fuzzy fallback (pure: no database). */
function indexOf(pages: readonly string[]): { chunks: ReturnType<typeof chunkPages>; terms: string[] } {
  const chunks = chunkPages([...pages]);
  // Sorted, so concurrent extractions take row locks in one order.
  const terms = [
    ...new Set(chunks.flatMap((c) => tokens(c.normText)).filter((t) => t.length >= 3 && !/^\d/.test(t))),
  ].sort();
  return { chunks, terms };
}

/**
 * Chunks and indexes the document's pages and makes it `ready`, running `onReady` in the short transaction
 * that does (src/documents/index_write.ts: the rows go in slices, the document invisible until then). `rows`
 * are the pages to store with it; without them the pages are stored already (OCR's last page). Returns how
 * the write ended and the number of chunks.
 */
export async function indexDocument(
  db: Db,
  documentId: string,
  pages: readonly string[],
  options: {
    now: () => Date;
    onReady: ExtractOptions['onReady'];
    ocr?: { pages: number; unreadable: number[] };
    rows?: readonly PageRow[];
    signal?: AbortSignal;
  },
): Promise<{ outcome: SliceOutcome; chunks: number }> {
  const { now, ocr } = options;
  // Chunks and vocabulary computed before any transaction: the connection is held for the writes only.
  const { chunks, terms } = indexOf(pages);
  const outcome = await writeIndexInSlices(
    db,
    documentId,
    { pages: options.rows ?? null, chunks, terms },
    { now, claim: options.rows !== undefined, ...(options.signal ? { signal: options.signal } : {}) },
    async (tx) => {
      // OCR's last page: a page made to wait again meanwhile (the text read anew) leaves it for that read.
      if (
        options.rows === undefined &&
        (await tx.$count(
          documentPages,
          and(eq(documentPages.documentId, documentId), eq(documentPages.ocrState, 'pending')),
        )) > 0
      ) {
        throw new Error(`document ${documentId} has pages waiting for OCR again; its index waits for them`);
      }
      const [ready] = await tx
        .update(documents)
        .set({
          status: 'ready',
          error: null,
          pageCount: pages.length,
          ocrPageCount: ocr?.pages ?? null,
          unreadablePages: ocr === undefined || ocr.unreadable.length === 0 ? null : ocr.unreadable,
          updatedAt: now(),
          extractedAt: now(),
          searchIndexVersion: SEARCH_INDEX_VERSION,
        })
        .where(eq(documents.id, documentId))
        .returning({ id: documents.id, corpus: documents.corpus, caseId: documents.caseId });
      if (ready !== undefined) await options.onReady?.(tx, { ...ready, pageCount: pages.length });
    },
  );
  return { outcome, chunks: chunks.length };
}
