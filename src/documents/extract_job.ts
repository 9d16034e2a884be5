import { and, eq, inArray } from '../db/orm.ts';
import { documents } from '../db/schema/documents.ts';
import type { DbOrTx } from '../db/types.ts';
import { enqueueJob, type JobHandler, PermanentJobError } from '../jobs/queue.ts';
import { isPermanentExtractionFailure } from './errors.ts';
import { extractAndIndexDocument, type ReadyDocument } from './pipeline.ts';

/** The job kind that extracts and indexes one uploaded document; its dedupe key is the document id. */
export const DOCUMENT_EXTRACT = 'document_extract';

/** The subject a document's jobs carry (extraction_status document_id looks them up by it). */
export const documentSubject = (documentId: string) => `document:${documentId}`;

/** Queues a new document's extraction; run it in the transaction that created the document. */
export const enqueueDocumentExtraction = (tx: DbOrTx, documentId: string) =>
  enqueueJob(tx, {
    kind: DOCUMENT_EXTRACT,
    dedupeKey: documentId,
    subject: documentSubject(documentId),
    payload: { document_id: documentId },
  });

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
 * reads the text (the entries list them: entry/registries.ts).
 */
export const documentExtractJob = (followUps: readonly FollowUp[] = []): JobHandler =>
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
