import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { invalidArg } from '../../src/contract/errors.ts';
import { removeCaseDocument } from '../../src/documents/remove.ts';
import { documentIdInput, documentNotFound, findDocumentInLiveCase } from '../../src/documents/views.ts';

export const document_delete = defineTool({
  name: 'document_delete',
  title: 'Remove a case document',
  description:
    'Removes one case document (kept for audit, reached by no tool): its text, passages, references, ' +
    'facts, citations and untouched claim candidates leave with it; decided claims and the rest of the ' +
    'case stay. A repeat answers as the first did. To read a failed document again: document_extract.',
  input: {
    document_id: documentIdInput,
    reason: z.string().trim().min(1).max(2000).describe('Why the document is removed (kept with it)'),
  },
  output: z.object({
    document_id: z.uuid(),
    case_id: z.uuid(),
    title: z.string(),
    deleted_at: z.iso.datetime().describe('When the document was removed'),
    reason: z.string().describe('The reason the removal recorded (the first one, on a repeat)'),
  }),
  mutates: 'destructive',
  // The reason is part of the key: a repeat with other words is a no-op answering the first removal.
  idempotencyKey: { describe: 'document_id + reason', of: (input) => `${input.document_id}:${input.reason}` },
  async run({ ctx, input }) {
    const doc = await findDocumentInLiveCase(ctx.db, input.document_id);
    if (doc === undefined) throw documentNotFound(input.document_id);
    if (doc.corpus !== 'case' || doc.caseId === null) {
      throw invalidArg(
        'document_id',
        `only a case document can be removed; this is a ${doc.corpus} document (document_update changes its metadata)`,
      );
    }
    const removed = await removeCaseDocument(ctx.db, doc.id, {
      reason: input.reason,
      now: ctx.now(),
    });
    return ok(
      {
        document_id: doc.id,
        case_id: doc.caseId,
        title: doc.title,
        deleted_at: removed.deletedAt.toISOString(),
        reason: removed.reason,
      },
      removed.now ? `Document “${doc.title}” removed` : `Document “${doc.title}” was already removed`,
    );
  },
});
