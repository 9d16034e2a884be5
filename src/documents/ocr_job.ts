import { and, eq, sql } from '../db/orm.ts';
import { documentPages, documents } from '../db/schema/documents.ts';
import type { Db, DbOrTx } from '../db/types.ts';
import { enqueueJob, type JobHandler, PermanentJobError } from '../jobs/queue.ts';
import { readDocumentBlob } from './blobs.ts';
import { ExtractionError } from './errors.ts';
import { lockStatus } from './index_write.ts';
import type { OcrEngine, OcrResult } from './ocr/engine.ts';
import { type ExtractOptions, failDocument, indexDocument, type ReadyDocument } from './pipeline.ts';
import { inlineReader, type PageReader } from './reader.ts';

/** The job kind that reads one page of a document by OCR; its dedupe key is "<document id>:<page>". */
export const DOCUMENT_OCR_PAGE = 'document_ocr_page';

/**
 * A page is read with the Hebrew model alone first: with the English one beside it, Tesseract misreads some
 * Hebrew words as Latin («חוות» → «Vion») and takes lines that start with a number for left-to-right ones.
 * When the Hebrew reading is less sure than this (Latin text, which the Hebrew model cannot read, makes it
 * drop), the page is read again with both models and the surer reading is kept.
 */
export const HEBREW_FIRST_CONFIDENCE = 0.8;

/** The page read as readPage says: Hebrew first, then Hebrew and English when that is not sure enough. */
export async function readPage(
  engine: OcrEngine,
  image: Uint8Array,
  signal?: AbortSignal,
): Promise<OcrResult> {
  const hebrew = await engine.recognize(image, { languages: ['heb'], ...(signal ? { signal } : {}) });
  if (hebrew.confidence >= HEBREW_FIRST_CONFIDENCE) return hebrew;
  const both = await engine.recognize(image, { languages: ['heb', 'eng'], ...(signal ? { signal } : {}) });
  return both.confidence > hebrew.confidence ? both : hebrew;
}

/**
 * Below this mean word confidence (0..1) a page's OCR text is not kept: the page is `unreadable` (noise, a
 * photo, a blank or faint page) and is reported on the document instead of feeding search with noise.
 * Clean scans read at 0.85–0.95; noise pages at 0.3 or less.
 */
export const MIN_OCR_CONFIDENCE = 0.5;

/**
 * Queues OCR for these pages of a document (in the transaction that stored its text-layer pages). A page
 * read before (the document read again) runs again from its first attempt.
 */
export async function enqueueOcrPages(
  tx: DbOrTx,
  documentId: string,
  pages: readonly number[],
  subject: string,
): Promise<void> {
  for (const page of pages) {
    const job = await enqueueJob(tx, {
      kind: DOCUMENT_OCR_PAGE,
      dedupeKey: `${documentId}:${page}`,
      subject,
      payload: { document_id: documentId, page },
      reviveDead: true,
    });
    if (!job.created) {
      await tx.execute(sql`
        update jobs set state = 'pending', attempt = 0, last_error = null, run_at = now(), lease_until = null,
          locked_by = null, finished_at = null, updated_at = now()
        where id = ${job.id} and state = 'succeeded'`);
    }
  }
}

function refOf(payload: Record<string, unknown>): { documentId: string; page: number } {
  const { document_id: documentId, page } = payload;
  if (typeof documentId !== 'string' || documentId === '' || !Number.isInteger(page) || Number(page) < 1) {
    throw new PermanentJobError('payload needs document_id and page');
  }
  return { documentId, page: Number(page) };
}

/** What OCR made of a page: its text and confidence, or the reason it is unreadable. */
interface PageOutcome {
  text: string;
  confidence: number | null;
  state: 'read' | 'unreadable';
}

/** The bytes of the document whose pages are being read, kept for its next page's job (one document). */
let lastScan: { key: string; bytes: Uint8Array; at: number } | undefined;
const SCAN_KEPT_MS = 60_000;

/**
 * The document's bytes, read once for all its pages: every page job needs the whole file, and reading it
 * from the database (in slices, on PGlite by the agents' thread) for each of 60 pages was most of what a
 * scan cost that thread. Keyed by id and sha256 (the bytes of a document never change under them); dropped
 * when the document is finished (forgetScan) or, unused for a minute, at the next page read (no timer: the
 * same code runs in the extraction Worker, whose timers cannot be unref'd).
 */
async function scanBytes(
  db: DbOrTx,
  documentId: string,
  sha256: string,
  now: number,
): Promise<Uint8Array | null> {
  const key = `${documentId}:${sha256}`;
  const kept = lastScan?.key === key && now - lastScan.at < SCAN_KEPT_MS ? lastScan.bytes : undefined;
  const bytes = kept ?? (await readDocumentBlob(db, documentId));
  lastScan = bytes === null ? undefined : { key, bytes, at: now };
  return bytes;
}

/** Drops the kept bytes once their document is no longer being read. */
function forgetScan(documentId: string): void {
  if (lastScan?.key.startsWith(`${documentId}:`)) lastScan = undefined;
}

/** Stores a page's outcome (a short transaction); the document's index is written after it (finishDocumentIfRead). */
async function settlePage(
  tx: DbOrTx,
  ref: { documentId: string; page: number },
  outcome: PageOutcome,
): Promise<void> {
  if ((await lockStatus(tx, ref.documentId)) !== 'extracting') return;
  await tx
    .update(documentPages)
    .set({ text: outcome.text, ocrState: outcome.state, ocrConfidence: outcome.confidence })
    .where(
      and(
        eq(documentPages.documentId, ref.documentId),
        eq(documentPages.page, ref.page),
        eq(documentPages.ocrState, 'pending'),
      ),
    );
}

/**
 * Reads one page by OCR (payload { document_id, page }) with the engine `engine()` gives (the process's
 * Tesseract worker by default; a managed service where configured), stores its text and confidence, and the
 * last page of the document makes it ready. A page the engine reads with too little confidence, or with no
 * text, is stored empty as `unreadable` (reported on the document). A page whose image cannot be decoded is
 * unreadable too (permanent). A failure of the engine or the database is retried; when attempts run out the
 * page is unreadable, so the document never waits for ever.
 */
export const documentOcrPageJob = (
  engine: () => OcrEngine,
  followUps: readonly ((tx: DbOrTx, document: ReadyDocument) => Promise<void>)[] = [],
  options: { reader?: PageReader } = {},
): JobHandler => {
  const reader = options.reader ?? inlineReader;
  const onReady = async (tx: DbOrTx, doc: ReadyDocument) => {
    for (const followUp of followUps) await followUp(tx, doc);
  };
  return Object.assign(
    async (job: Parameters<JobHandler>[0], jctx: Parameters<JobHandler>[1]) => {
      const ref = refOf(job.payload);
      jctx.signal.throwIfAborted();
      const [row] = await jctx.db
        .select({ status: documents.status, mediaType: documents.mediaType, sha256: documents.sha256 })
        .from(documents)
        .where(eq(documents.id, ref.documentId))
        .limit(1);
      // Deleted, or read again meanwhile into another state: nothing for this page to do.
      if (row === undefined || row.status !== 'extracting') return;
      const [pageRow] = await jctx.db
        .select({ state: documentPages.ocrState })
        .from(documentPages)
        .where(and(eq(documentPages.documentId, ref.documentId), eq(documentPages.page, ref.page)));
      // Read before (this job stopped after storing it, before the document's index was written): the
      // index is written now if no page is left waiting.
      if (pageRow?.state !== 'pending') {
        if (pageRow !== undefined)
          await finishDocumentIfRead(jctx.db, ref.documentId, { now: jctx.now, onReady });
        return;
      }
      // In slices, without a transaction: on PGlite one bytea read as a whole holds the server's thread.
      const bytes = await scanBytes(jctx.db, ref.documentId, row.sha256, jctx.now().getTime());
      if (bytes === null) return;
      let outcome: PageOutcome;
      try {
        // Decoded where `reader` runs (the reader threads on Node): a page's pixels are CPU work.
        const image = await reader.pageImage(bytes, row.mediaType, ref.page, { signal: jctx.signal });
        if (image === null) {
          // No text layer and no image: a blank page.
          outcome = { text: '', confidence: null, state: 'read' };
        } else {
          const result = await readPage(engine(), image, jctx.signal);
          const readable = result.text.trim() !== '' && result.confidence >= MIN_OCR_CONFIDENCE;
          outcome = {
            text: readable ? result.text : '',
            confidence: result.confidence,
            state: readable ? 'read' : 'unreadable',
          };
        }
      } catch (e) {
        if (!(e instanceof ExtractionError) || !e.permanent) throw e;
        jctx.log.warn('OCR page unreadable', {
          document_id: ref.documentId,
          page: ref.page,
          error: e.message,
        });
        outcome = { text: '', confidence: null, state: 'unreadable' };
      }
      await jctx.db.transaction((tx) => settlePage(tx, ref, outcome));
      if ((await finishDocumentIfRead(jctx.db, ref.documentId, { now: jctx.now, onReady })) !== 'waiting')
        forgetScan(ref.documentId);
    },
    {
      async onDead(
        job: Parameters<NonNullable<JobHandler['onDead']>>[0],
        jctx: Parameters<NonNullable<JobHandler['onDead']>>[1],
      ) {
        const ref = refOf(job.payload);
        await jctx.db.transaction((tx) =>
          settlePage(tx, ref, { text: '', confidence: null, state: 'unreadable' }),
        );
        await finishDocumentIfRead(jctx.db, ref.documentId, { now: jctx.now, onReady });
      },
    },
  );
};

/**
 * Called by each OCR page job after it stored its page: when no page is left `pending` and the document is
 * still `extracting`, makes it ready (chunks and vocabulary in short transactions, then the one that flips
 * it and queues its follow-ups: indexDocument). Two page jobs finishing together both write the same rows;
 * the first to flip the document wins, the other stops (its status moved on). A document whose pages all
 * came out empty fails (`no_text`), naming the unreadable pages. Returns what happened.
 */
export async function finishDocumentIfRead(
  db: Db,
  documentId: string,
  options: { now: () => Date; onReady?: ExtractOptions['onReady'] },
): Promise<'waiting' | 'ready' | 'failed' | 'not_extracting'> {
  const [doc] = await db
    .select({ status: documents.status })
    .from(documents)
    .where(eq(documents.id, documentId));
  if (doc?.status !== 'extracting') return 'not_extracting';
  // Every page's job asks; only the last one reads the pages' text (not all of it, once per page).
  const [waiting] = await db
    .select({ page: documentPages.page })
    .from(documentPages)
    .where(and(eq(documentPages.documentId, documentId), eq(documentPages.ocrState, 'pending')))
    .limit(1);
  if (waiting !== undefined) return 'waiting';
  const rows = await db
    .select({ page: documentPages.page, text: documentPages.text, state: documentPages.ocrState })
    .from(documentPages)
    .where(eq(documentPages.documentId, documentId))
    .orderBy(documentPages.page);
  if (rows.some((r) => r.state === 'pending')) return 'waiting';
  const unreadable = rows.filter((r) => r.state === 'unreadable').map((r) => r.page);
  const ocrPages = rows.filter((r) => r.state !== null).length;
  if (rows.every((r) => r.text.trim() === '')) {
    const which = unreadable.length === 0 ? '' : ` (unreadable: page ${unreadable.join(', ')})`;
    const failed = await db.transaction(async (tx) => {
      if ((await lockStatus(tx, documentId)) !== 'extracting') return false;
      await failDocument(
        tx,
        documentId,
        `The document has no text: its pages have no text layer and OCR found none on them${which}; scan again at 300 dpi, or upload a copy with text`,
        options.now(),
      );
      return true;
    });
    return failed ? 'failed' : 'not_extracting';
  }
  const { outcome } = await indexDocument(
    db,
    documentId,
    rows.map((r) => r.text),
    { now: options.now, onReady: options.onReady, ocr: { pages: ocrPages, unreadable } },
  );
  return outcome === 'finished' ? 'ready' : 'not_extracting';
}
