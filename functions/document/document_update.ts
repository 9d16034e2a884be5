import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { ToolError } from '../../src/contract/errors.ts';
import { stableStringify } from '../../src/contract/hash.ts';
import { documents } from '../../src/db/schema/documents.ts';
import { committeeField, courtField, decisionFields } from '../../src/domain/decisions.ts';
import { documentIdInput, documentView, loadDocument } from '../../src/domain/documents.ts';

const forCorpora = <T extends z.ZodType>(corpora: string, field: T): T =>
  field.describe(`${corpora}: ${field.description ?? ''}`);

/** Fields only the internal and library corpora carry. */
const DECISION_FIELDS = ['number', 'decision_date', 'court', 'committee', 'parties'] as const;

export const document_update = defineTool({
  name: 'document_update',
  title: 'Change a document’s metadata',
  description:
    'Changes a document’s metadata: its title, and for committee decisions (internal) and rulings (library) ' +
    'their number, decision date, court or committee, and parties. Never the file or its text: upload a new ' +
    'document for that. Only the fields given change; safe to retry. Returns the document and the fields changed.',
  input: {
    document_id: documentIdInput,
    title: z
      .string()
      .trim()
      .min(1)
      .max(300)
      .optional()
      .describe('A short descriptive title (Hebrew is fine)'),
    // The decision fields as internal_decision_add and library_add take them, saying which corpus has which.
    number: forCorpora('internal/library', decisionFields.number),
    decision_date: forCorpora('internal/library', decisionFields.decision_date),
    court: forCorpora('library', courtField),
    committee: forCorpora('internal', committeeField),
    parties: forCorpora('internal/library', decisionFields.parties),
  },
  mutates: 'write',
  idempotencyKey: (input) => `${input.document_id}:${stableStringify(input)}`,
  setSemantics: true,
  async run({ ctx, input }) {
    const { document_id, ...changes } = input;
    const fields = Object.entries(changes)
      .filter(([, v]) => v !== undefined)
      .map(([k]) => k);
    if (fields.length === 0) {
      throw new ToolError('invalid_args', 'Give at least one field to change', {
        details: { issues: [{ path: '(arguments)', message: 'no field to change' }] },
      });
    }
    const doc = await loadDocument(ctx.db, document_id);
    const decisionFields = fields.filter((f) => (DECISION_FIELDS as readonly string[]).includes(f));
    if (decisionFields.length > 0 && doc.corpus !== 'internal' && doc.corpus !== 'library') {
      throw new ToolError(
        'invalid_args',
        `${decisionFields.join(', ')} apply only to internal and library documents`,
        {
          details: {
            corpus: doc.corpus,
            issues: decisionFields.map((f) => ({
              path: f,
              message: `not a field of a ${doc.corpus} document`,
            })),
          },
        },
      );
    }
    const [row] = await ctx.db
      .update(documents)
      .set({
        title: changes.title,
        number: changes.number,
        decisionDate: changes.decision_date,
        court: changes.court,
        committee: changes.committee,
        parties: changes.parties,
        updatedAt: ctx.now(),
      })
      .where(eq(documents.id, document_id))
      .returning();
    if (row === undefined) throw new ToolError('not_found', `No document with id ${document_id}`);
    return ok({ document: documentView(row), changed: fields }, `Document updated (${fields.join(', ')})`);
  },
});
