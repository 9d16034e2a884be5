// Rule-based extractors as durable work (docs/contract.md "Extraction"). An extractor reads one document's
// extracted text and replaces its own candidates for that document (in one transaction, its big inserts in
// short ones after it: ExtractorContext.slice); it runs as a job of
// its own kind, one job per (document, extractor version), queued by its `*_extract` tool and after the
// document's text extraction (entry/registries.ts lists the follow-ups).
import { and, asc, eq } from '../db/orm.ts';
import { DELETED_DOCUMENT, type DocumentRow, documentPages, documents } from '../db/schema/documents.ts';
import type { DbOrTx } from '../db/types.ts';
import { writeInSlices } from '../documents/index_write.ts';
import type { ReadyDocument } from '../documents/pipeline.ts';
import { enqueueJob, type JobHandler, PermanentJobError } from '../jobs/queue.ts';
import type { Logger } from '../log.ts';

/** What an extractor's run sees of the job that runs it. */
export interface ExtractorContext {
  now(): Date;
  log: Logger;
  /**
   * Queues a write to run once `run`'s transaction has committed, in a short transaction of its own (the
   * document row locked and still ready; src/documents/index_write.ts writeInSlices): for the batches of a
   * big insert, so the embedded database's one connection is not held for all of them at once. It must be
   * an upsert a re-run writes again the same (a run stopped between slices is finished by running it again).
   */
  slice(write: (tx: DbOrTx) => Promise<unknown>): void;
}

/** The fields of a document an extractor's pure part reads: what crosses to a reader thread. */
export type FindDocument = Pick<DocumentRow, 'id' | 'corpus' | 'caseId' | 'role'>;

export interface Extractor<F = unknown, I = unknown> {
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
  run(
    tx: DbOrTx,
    document: DocumentRow,
    pages: readonly string[],
    ctx: ExtractorContext,
    found?: F,
  ): Promise<void>;
  /**
   * The rules' part of a run, with no database: what `run` would find in these pages. When an extractor has
   * one, the job computes it before its transaction (in a reader thread on Node) and hands it to `run`, so
   * neither the database connection nor the thread that answers the agents waits on the rules. Its result
   * must survive a structured clone.
   */
  find?(document: FindDocument, pages: readonly string[], input: I): F;
  /** What `find` needs of the database beside the pages (read before it runs; `run` checks it still holds). */
  findInput?(db: DbOrTx, document: DocumentRow, pages: readonly string[]): Promise<I>;
}

/** Where an extractor's pure part runs: a reader thread on Node (reader_pool.ts), else the job's own thread. */
export interface ExtractorFinder {
  find(
    kind: string,
    document: FindDocument,
    pages: readonly string[],
    input: unknown,
    options?: { signal?: AbortSignal },
  ): Promise<unknown>;
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
export function extractorJob(extractor: Extractor, finder?: ExtractorFinder): JobHandler {
  return async (job, jctx) => {
    const documentId = job.payload.document_id;
    if (typeof documentId !== 'string') throw new PermanentJobError('payload has no document_id');
    jctx.signal.throwIfAborted();
    const ahead = await findAhead(jctx.db, extractor, documentId, finder, jctx.signal);
    jctx.signal.throwIfAborted();
    const slices: ((tx: DbOrTx) => Promise<unknown>)[] = [];
    const ctx: ExtractorContext = { now: jctx.now, log: jctx.log, slice: (write) => slices.push(write) };
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
      // What was found ahead holds only for the same text and role (a re-read or a new role in between: anew).
      const found =
        ahead !== undefined && ahead.role === document.role && samePages(ahead.pages, pages)
          ? ahead.found
          : undefined;
      await extractor.run(tx, document, pages, ctx, found);
    });
    // Read again or removed meanwhile: the rest is moot (a new read queues this extractor again).
    await writeInSlices(jctx.db, documentId, slices, {
      proceed: (status) => status === 'ready',
      signal: jctx.signal,
    });
  };
}

interface FoundAhead {
  role: DocumentRow['role'];
  pages: readonly string[];
  found: unknown;
}

/** The extractor's pure part on the document as it is now, outside any transaction; undefined if none runs. */
async function findAhead(
  db: DbOrTx,
  extractor: Extractor,
  documentId: string,
  finder: ExtractorFinder | undefined,
  signal: AbortSignal,
): Promise<FoundAhead | undefined> {
  const find = extractor.find;
  if (find === undefined) return undefined;
  const [document] = await db.select().from(documents).where(eq(documents.id, documentId));
  if (document === undefined || document.status !== 'ready' || !extractor.accepts(document)) return undefined;
  const pages = await documentPageTexts(db, documentId);
  const subject: FindDocument = {
    id: document.id,
    corpus: document.corpus,
    caseId: document.caseId,
    role: document.role,
  };
  const input = await extractor.findInput?.(db, document, pages);
  const found =
    finder === undefined
      ? find.call(extractor, subject, pages, input)
      : await finder.find(extractor.kind, subject, pages, input, { signal });
  return { role: document.role, pages, found };
}

const samePages = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((p, i) => p === b[i]);
