import { and, eq, inArray, sql } from '../db/orm.ts';
import { documents } from '../db/schema/documents.ts';
import type { DbOrTx } from '../db/types.ts';
import { enqueueJob, type JobHandler, PermanentJobError } from '../jobs/queue.ts';
import { isPermanentExtractionFailure } from './errors.ts';
import { enqueueOcrPages } from './ocr_job.ts';
import { extractAndIndexDocument, type ReadyDocument } from './pipeline.ts';
import type { PageReader } from './reader.ts';

/** The job kind that extracts and indexes one uploaded document; its dedupe key is the document id. */
export const DOCUMENT_EXTRACT = 'document_extract';

/** The subject a document's jobs carry (extraction_status document_id looks them up by it). */
export const documentSubject = (documentId: string) => `document:${documentId}`;

/**
 * Queues a document's extraction; run it in the transaction that created (or re-read) the document. A
 * document read before (uploaded again after document_delete, or re-read) has a finished job under its id:
 * that job runs again from its first attempt.
 */
export async function enqueueDocumentExtraction(tx: DbOrTx, documentId: string) {
  const job = await enqueueJob(tx, {
    kind: DOCUMENT_EXTRACT,
    dedupeKey: documentId,
    subject: documentSubject(documentId),
    payload: { document_id: documentId },
    reviveDead: true,
  });
  if (!job.created) {
    await tx.execute(sql`
      update jobs set state = 'pending', attempt = 0, last_error = null, run_at = now(), lease_until = null,
        locked_by = null, finished_at = null, updated_at = now()
      where id = ${job.id} and state = 'succeeded'`);
  }
  return job;
}

/**
 * Reads failed documents again (document_extract): each of `ids` still `failed` goes back to `pending`
 * without its error, and its extraction job runs again from its first attempt (revived when dead, restarted
 * when it ran to its end). Only documents this call moved are returned: a concurrent or repeated call finds
 * them pending and queues nothing twice. Kick the queue after the transaction commits.
 */
export async function requeueFailedDocuments(
  tx: DbOrTx,
  ids: readonly string[],
  now: Date,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const moved = await tx
    .update(documents)
    .set({ status: 'pending', error: null, updatedAt: now })
    .where(and(inArray(documents.id, [...ids]), eq(documents.status, 'failed')))
    .returning({ id: documents.id });
  for (const { id } of moved) await enqueueDocumentExtraction(tx, id);
  return moved.map((m) => m.id);
}

const MAX_DOCUMENT_ERROR_CHARS = 1_000;

function documentIdOf(payload: Record<string, unknown>): string {
  const id = payload.document_id;
  if (typeof id !== 'string' || id === '') throw new PermanentJobError('payload has no document_id');
  return id;
}

/** Work to queue once a document's text exists, in the transaction that makes it ready. */
export type FollowUp = (tx: DbOrTx, document: ReadyDocument) => Promise<void>;

/**
 * Extracts one document (payload { document_id }). A failure that comes from the bytes (encrypted, broken,
 * no text) is permanent: the document is already `failed` with the error, and the job goes dead at once.
 * Anything else (a database fault) is retried with backoff; when the attempts run out, onDead marks the
 * document failed, so no document waits in `pending`/`extracting` for ever. `followUps` queue the work that
 * reads the text (the entries list them: entry/registries.ts); when pages need OCR they run when the last
 * page is read (ocr_job.ts), and the document stays `extracting` meanwhile. `reader` parses the bytes:
 * in-line by default, the Node entry's pool of threads there (the runtime chooses).
 */
export const documentExtractJob = (
  followUps: readonly FollowUp[] = [],
  options: { reader?: PageReader } = {},
): JobHandler =>
  Object.assign(
    async (job: Parameters<JobHandler>[0], jctx: Parameters<JobHandler>[1]) => {
      const documentId = documentIdOf(job.payload);
      // Stopped before it starts (lease already gone, shutdown): let the next attempt do it.
      jctx.signal.throwIfAborted();
      try {
        await extractAndIndexDocument(jctx.db, documentId, {
          now: jctx.now,
          log: jctx.log,
          onReady: async (tx, doc) => {
            for (const followUp of followUps) await followUp(tx, doc);
          },
          // Pages without a text layer: one OCR job each; the last of them makes the document ready.
          onOcrPages: (tx, id, pages) => enqueueOcrPages(tx, id, pages, documentSubject(id)),
          signal: jctx.signal,
          ...(options.reader === undefined ? {} : { reader: options.reader }),
        });
      } catch (e) {
        if (isPermanentExtractionFailure(e)) {
          throw new PermanentJobError(e instanceof Error ? e.message : String(e), { cause: e });
        }
        throw e;
      }
    },
    {
      async onDead(
        job: Parameters<NonNullable<JobHandler['onDead']>>[0],
        jctx: Parameters<NonNullable<JobHandler['onDead']>>[1],
      ) {
        const documentId = job.payload.document_id;
        if (typeof documentId !== 'string') return;
        const error = `Extraction gave up after ${job.attempt} attempt(s): ${job.error}`;
        // Only a document still waiting: a permanent failure already stored its own, clearer error.
        await jctx.db
          .update(documents)
          .set({
            status: 'failed',
            error:
              error.length > MAX_DOCUMENT_ERROR_CHARS
                ? `${error.slice(0, MAX_DOCUMENT_ERROR_CHARS)}…`
                : error,
            updatedAt: jctx.now(),
          })
          .where(and(eq(documents.id, documentId), inArray(documents.status, ['pending', 'extracting'])));
      },
    },
  );
