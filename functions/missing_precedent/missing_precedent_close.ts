import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { invalidArg, ToolError } from '../../src/contract/errors.ts';
import { and, eq, isNull } from '../../src/db/orm.ts';
import { citations, missingPrecedents } from '../../src/db/schema/precedents.ts';
import { missingResolutions } from '../../src/db/schema/vocabulary.ts';
import { loadDocument } from '../../src/documents/views.ts';
import { loadMissing, missingOutput, missingView } from '../../src/precedents/missing.ts';

export const missing_precedent_close = defineTool({
  name: 'missing_precedent_close',
  title: 'Close a missing precedent',
  description:
    'Closes a missing precedent as found (with the library or internal document; its citations then ' +
    'resolve to it) or dismissed, with the reason.',
  input: {
    missing_precedent_id: z.uuid().describe('From missing_precedent_list'),
    resolution: z.enum(missingResolutions).describe('found (with document_id) or dismissed'),
    document_id: z.uuid().optional().describe('found: the library or internal document'),
    reason: z.string().trim().min(3).max(1000).describe('Why, for the record'),
  },
  output: z.object({ missing_precedent: missingOutput }),
  mutates: 'write',
  precheck: (input) => {
    if (input.resolution === 'found' && input.document_id === undefined) {
      throw invalidArg('document_id', 'found needs the document that supplies it');
    }
    if (input.resolution === 'dismissed' && input.document_id !== undefined) {
      throw invalidArg('document_id', 'a dismissed one has no document');
    }
  },
  idempotencyKey: {
    describe: 'the missing precedent, resolution and document',
    of: (input) => `${input.missing_precedent_id}:${input.resolution}:${input.document_id ?? '-'}`,
  },
  async run({ ctx, input }) {
    const row = await loadMissing(ctx.db, input.missing_precedent_id);
    const documentId = input.document_id ?? null;
    if (documentId !== null) {
      const doc = await loadDocument(ctx.db, documentId);
      if (doc.corpus !== 'library' && doc.corpus !== 'internal') {
        throw invalidArg(
          'document_id',
          `a ${doc.corpus} document cannot supply a precedent`,
          'Add it with library_add or internal_decision_add.',
        );
      }
    }
    const same = (r: typeof row) => r.resolution === input.resolution && r.documentId === documentId;
    if (row.status === 'closed') {
      if (same(row)) return ok({ missing_precedent: missingView(row) }, 'Already closed so');
      throw new ToolError('invalid_state', `It was already closed as ${row.resolution}`, {
        details: { missing_precedent_id: row.id, resolution: row.resolution, document_id: row.documentId },
        hint: 'missing_precedent_create records it again if it is still needed.',
      });
    }
    const closed = await ctx.db.transaction(async (tx) => {
      const [updated] = await tx
        .update(missingPrecedents)
        .set({
          status: 'closed',
          resolution: input.resolution,
          documentId,
          reason: input.reason,
          closedBy: ctx.agent,
          closedAt: ctx.now(),
        })
        .where(and(eq(missingPrecedents.id, row.id), eq(missingPrecedents.status, 'open')))
        .returning();
      if (updated !== undefined && documentId !== null) {
        await tx
          .update(citations)
          .set({ citedDocumentId: documentId })
          .where(and(eq(citations.key, row.key), isNull(citations.citedDocumentId)));
      }
      return updated;
    });
    if (closed !== undefined)
      return ok({ missing_precedent: missingView(closed) }, `Closed as ${input.resolution}`);
    // Closed by another call meanwhile: the same closing is this one's answer; another is a conflict.
    const now = await loadMissing(ctx.db, row.id);
    if (same(now)) return ok({ missing_precedent: missingView(now) }, 'Already closed so');
    throw new ToolError('invalid_state', `It was just closed as ${now.resolution}`, {
      details: { missing_precedent_id: now.id, resolution: now.resolution },
    });
  },
});
