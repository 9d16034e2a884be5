// Rule-based extractors as durable work (docs/contract.md "Extraction"). An extractor reads one document's
// extracted text and replaces its own candidates for that document in one transaction; it runs as a job of
// its own kind, one job per (document, extractor version), queued by its `*_extract` tool and after the
// document's text extraction (entry/registries.ts lists the follow-ups).
import { and, asc, eq } from '../db/orm.ts';
import { DELETED_DOCUMENT, type DocumentRow, documentPages, documents } from '../db/schema/documents.ts';
import type { DbOrTx } from '../db/types.ts';
import type { ReadyDocument } from '../documents/pipeline.ts';
import { enqueueJob, type JobHandler, PermanentJobError } from '../jobs/queue.ts';
import type { Logger } from '../log.ts';

/** What an extractor's run sees of the job that runs it. */
export interface ExtractorContext {
  now(): Date;
  log: Logger;
}

export interface Extractor {
  /** The job kind, and the name of the tool that queues it (e.g. "reference_extract"). */
  kind: string;
  /** Part of every candidate's provenance; a new version re-extracts (a new job per document). */
  version: string;
  /** Whether the extractor reads this document (by corpus, role…); others are skipped, never an error. */
  accepts(document: Pick<DocumentRow, 'corpus' | 'caseId'> & Partial<DocumentRow>): boolean;
  /**
   * Replaces this extractor's candidates for the document with those found in `pages` (page 1 first, the
   * text exactly as document_text_get returns it), inside `tx`, with the document row locked. It must leave
   * alone anything an agent or the owner recorded, so running it twice gives the same rows.
   */
  run(tx: DbOrTx, document: DocumentRow, pages: readonly string[], ctx: ExtractorContext): Promise<void>;
}

/** The dedupe key of an extractor's job for a document: one job per document and extractor version. */
export const extractorDedupeKey = (extractor: Extractor, documentId: string) =>
  `${documentId}:${extractor.version}`;

/**
 * Queues the extractor for a document (in the caller's transaction). A job that already ran for this
 * version is returned as it is (same input, same output); one that went dead is revived, since asking again
 * for failed work is a retry.
 */
export const enqueueExtractor = (tx: DbOrTx, extractor: Extractor, documentId: string) =>
  enqueueJob(tx, {
    kind: extractor.kind,
    dedupeKey: extractorDedupeKey(extractor, documentId),
    subject: `document:${documentId}`,
    payload: { document_id: documentId, version: extractor.version },
    reviveDead: true,
  });

/** A follow-up for the document text job: queue the extractor for every new ready document it accepts. */
export const extractorFollowUp =
  (extractor: Extractor) =>
  async (tx: DbOrTx, document: ReadyDocument): Promise<void> => {
    if (extractor.accepts(document)) await enqueueExtractor(tx, extractor, document.id);
  };

/** The pages of a document's extracted text, page 1 first. */
export async function documentPageTexts(db: DbOrTx, documentId: string): Promise<string[]> {
  const rows = await db
    .select({ text: documentPages.text })
    .from(documentPages)
    .where(eq(documentPages.documentId, documentId))
    .orderBy(asc(documentPages.page));
  return rows.map((r) => r.text);
}

/**
 * The job handler of an extractor. A document that is gone or not ready is a permanent failure (nothing a
 * retry can fix; its text job reports why); a database fault is retried like any job.
 */
export function extractorJob(extractor: Extractor): JobHandler {
  return async (job, jctx) => {
    const documentId = job.payload.document_id;
    if (typeof documentId !== 'string') throw new PermanentJobError('payload has no document_id');
    jctx.signal.throwIfAborted();
    await jctx.db.transaction(async (tx) => {
      // The row lock serialises two runs for one document: the second replaces what the first wrote.
      const [document] = await tx
        .select()
        .from(documents)
        .where(and(eq(documents.id, documentId)))
        .for('update');
      if (document === undefined) throw new PermanentJobError(`document ${documentId} no longer exists`);
      // Removed by document_delete: nothing to read, and nothing of it may come back.
      if (document.status === DELETED_DOCUMENT) return;
      if (document.status !== 'ready') {
        throw new PermanentJobError(
          `document ${documentId} is ${document.status}, not ready: no text to read`,
        );
      }
      if (!extractor.accepts(document)) return;
      const pages = await documentPageTexts(tx, documentId);
      await extractor.run(tx, document, pages, { now: jctx.now, log: jctx.log });
    });
  };
}
