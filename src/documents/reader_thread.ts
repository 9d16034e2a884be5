// A reader thread of the pool (reader_pool.ts): reads one document at a time, as the pool sends them, and
// answers with its pages or the reason it could not. Node only (node:worker_threads).
import { parentPort, workerData } from 'node:worker_threads';
import type { DocumentMediaType } from '../db/schema/documents.ts';
import type { FindDocument } from '../extractors/framework.ts';
import { ExtractionError } from './errors.ts';
import { type DocumentRead, readPageImage, readPages } from './pages.ts';
import { lowerThreadPriority } from './thread_priority.ts';

/** What the pool sends: the bytes arrive transferred (this thread owns them). */
export interface ReadRequest {
  id: number;
  bytes: Uint8Array;
  mediaType: DocumentMediaType;
}

/** An extractor's pure part to run on a document's pages (extractors/all.ts findWith). */
export interface FindRequest {
  id: number;
  find: { kind: string; document: FindDocument; pages: readonly string[]; input: unknown };
}

/** A page of a document to render as an image for OCR (pages.ts readPageImage). */
export interface ImageRequest {
  id: number;
  image: { bytes: Uint8Array; mediaType: DocumentMediaType; page: number };
}

/** What the thread answers: the pages, or an ExtractionError's fields, or another error's message. */
export type ReadReply =
  | { id: number; ok: true; read: DocumentRead }
  | { id: number; ok: true; found: unknown }
  | { id: number; ok: true; image: Uint8Array | null }
  | {
      id: number;
      ok: false;
      extraction?: { failure: ExtractionError['failure']; permanent: boolean };
      message: string;
    };

/** The workerData the pool gives its own thread script (a test's script serves reads itself). */
export const READER_THREAD = 'chambers-reader-thread';

/** The thread's first message: it listens (the pool starts a document's clock from here, not from start-up). */
export const READER_READY = 'ready';

/** Answers the pool's requests with `read` (readPages in production), one at a time. */
export function serveReads(
  read: (bytes: Uint8Array, mediaType: DocumentMediaType) => Promise<DocumentRead>,
): void {
  const port = parentPort;
  if (port === null) throw new Error('serveReads runs in a worker thread');
  port.on('message', async (request: ReadRequest | FindRequest | ImageRequest) => {
    let reply: ReadReply;
    try {
      if ('find' in request) {
        // Loaded on the first find: a thread that only reads never pays for the rules.
        const { findWith } = await import('../extractors/all.ts');
        const { kind, document, pages, input } = request.find;
        reply = { id: request.id, ok: true, found: findWith(kind, document, pages, input) };
      } else if ('image' in request) {
        const { bytes, mediaType, page } = request.image;
        reply = { id: request.id, ok: true, image: await readPageImage(bytes, mediaType, page) };
      } else reply = { id: request.id, ok: true, read: await read(request.bytes, request.mediaType) };
    } catch (e) {
      reply = {
        id: request.id,
        ok: false,
        message: e instanceof Error ? e.message : String(e),
        ...(e instanceof ExtractionError
          ? { extraction: { failure: e.failure, permanent: e.permanent } }
          : {}),
      };
    }
    // An image moves back to the pool's thread (no copy).
    port.postMessage(
      reply,
      'image' in reply && reply.image !== null ? [reply.image.buffer as ArrayBuffer] : [],
    );
  });
  port.postMessage(READER_READY);
}

if (workerData === READER_THREAD) {
  lowerThreadPriority();
  serveReads(readPages);
}
