import * as z from 'zod';
import { loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { invalidArgs } from '../../src/contract/errors.ts';
import { and, asc, eq } from '../../src/db/orm.ts';
import { type DocumentRow, documentStatuses, documents } from '../../src/db/schema/documents.ts';
import { requeueFailedDocuments } from '../../src/documents/extract_job.ts';
import { documentIdInput, loadDocument } from '../../src/documents/views.ts';

/** A case holds at most this many documents a re-read takes at once (far more than a case file has). */
export const MAX_EXTRACT_AGAIN = 200;

export const document_extract = defineTool({
  name: 'document_extract',
  title: 'Read failed documents again',
  description:
    'Reads a failed document again (document_id), or every failed document of a case (case_id), from the ' +
    'start as after an upload (once the reader improved or a fault passed). Others are listed in skipped. ' +
    'Then extraction_status; one still unreadable fails again, and document_delete removes it.',
  input: {
    document_id: documentIdInput.optional().describe('This failed document'),
    case_id: z.uuid().optional().describe('Every failed document of this case'),
  },
  output: z.object({
    requeued: z
      .array(z.object({ document_id: z.uuid(), title: z.string() }))
      .max(MAX_EXTRACT_AGAIN)
      .describe('The documents queued to be read again'),
    skipped: z
      .array(z.object({ document_id: z.uuid(), status: z.enum(documentStatuses) }))
      .max(1)
      .describe('The document given, when it is not failed (nothing to re-read)'),
  }),
  mutates: 'write',
  readCounterpart: 'document_text_get',
  precheck(input) {
    if ((input.document_id === undefined) === (input.case_id === undefined)) {
      throw invalidArgs(
        [{ path: 'document_id', message: 'give exactly one of document_id or case_id' }],
        'Name one failed document, or a case to re-read all of its failed documents.',
      );
    }
  },
  // Re-reading sets failed documents back to pending, so a repeat is harmless by itself: it queues only
  // what is failed again, and never replays an old answer.
  idempotencyKey: {
    describe: 'document_id or case_id (a concurrent duplicate waits)',
    of: (input) => `extract:${input.document_id ?? `case:${input.case_id}`}`,
  },
  setSemantics: true,
  async run({ ctx, input }) {
    let candidates: Pick<DocumentRow, 'id' | 'title' | 'status'>[] = [];
    if (input.document_id !== undefined) {
      candidates = [await loadDocument(ctx.db, input.document_id)];
    } else if (input.case_id !== undefined) {
      await loadLiveCase(ctx.db, input.case_id);
      candidates = await ctx.db
        .select({ id: documents.id, title: documents.title, status: documents.status })
        .from(documents)
        .where(and(eq(documents.caseId, input.case_id), eq(documents.status, 'failed')))
        .orderBy(asc(documents.createdAt), asc(documents.id))
        .limit(MAX_EXTRACT_AGAIN);
    }
    const failed = candidates.filter((d) => d.status === 'failed');
    const moved = new Set(
      await ctx.db.transaction((tx) =>
        requeueFailedDocuments(
          tx,
          failed.map((d) => d.id),
          ctx.now(),
        ),
      ),
    );
    if (moved.size > 0) ctx.jobs.kick();
    const requeued = candidates
      .filter((d) => moved.has(d.id))
      .map((d) => ({ document_id: d.id, title: d.title }));
    const skipped = candidates.flatMap((d) =>
      moved.has(d.id) || d.status === 'deleted' || d.status === 'failed'
        ? []
        : [{ document_id: d.id, status: d.status }],
    );
    return ok(
      { requeued, skipped },
      requeued.length === 0
        ? 'No failed document to read again'
        : `${requeued.length} document(s) queued to be read again`,
    );
  },
});
