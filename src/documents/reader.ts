// Where a document's bytes become page text: the seam between the extraction job and the runtime. On Node the
// entry gives a pool of worker threads (reader_pool.ts), so parsing never holds the thread that answers the
// agents; on Workers there are no threads, and the extraction Worker reads in-line (it serves no agent).
import type { DocumentMediaType } from '../db/schema/documents.ts';
import { type DocumentRead, readPageImage, readPages } from './pages.ts';

export interface PageReader {
  /**
   * The text of each page and the pages OCR must read, as readPages gives them; ExtractionError (permanent) on
   * bad bytes. An aborted signal (shutdown, a lapsed lease) ends the read with the signal's reason.
   */
  read(
    bytes: Uint8Array,
    mediaType: DocumentMediaType,
    options?: { signal?: AbortSignal },
  ): Promise<DocumentRead>;
  /** A page's image for OCR, as readPageImage gives it (null: the page paints none). */
  pageImage(
    bytes: Uint8Array,
    mediaType: DocumentMediaType,
    page: number,
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array | null>;
  /** Ends any threads; reads still running or waiting fail with a transient error. */
  close(): Promise<void>;
}

/** Reads on the calling thread: the Workers runtime and the test harness. */
export const inlineReader: PageReader = {
  async read(bytes, mediaType, options) {
    options?.signal?.throwIfAborted();
    return readPages(bytes, mediaType);
  },
  async pageImage(bytes, mediaType, page, options) {
    options?.signal?.throwIfAborted();
    return readPageImage(bytes, mediaType, page);
  },
  async close() {},
};
