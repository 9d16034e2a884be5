import * as z from 'zod';
import { roleChanged } from '../../src/analysis/extractors.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { invalidArg, invalidArgs, one } from '../../src/contract/errors.ts';
import { stableStringify } from '../../src/contract/hash.ts';
import { eq } from '../../src/db/orm.ts';
import { documents } from '../../src/db/schema/documents.ts';
import {
  documentIdInput,
  documentOutput,
  documentView,
  loadDocument,
  roleInput,
} from '../../src/documents/views.ts';
import { committeeField, courtField, decisionFields } from '../../src/precedents/decision_fields.ts';

const forCorpora = <T extends z.ZodType>(corpora: string, field: T): T =>
  field.describe(`${corpora}: ${field.description ?? ''}`);

/** Fields only the internal and library corpora carry. */
const DECISION_FIELDS = ['number', 'decision_date', 'court', 'committee', 'parties'] as const;

export const document_update = defineTool({
  name: 'document_update',
  title: 'Change a document’s metadata',
  description:
    'Changes a document’s title, a case document’s role (its analysis then runs again) and, for ' +
    'committee decisions (internal) and rulings (library), their number, date, court or committee and ' +
    'parties. Never the file or its text. Returns the document and the fields changed.',
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
    role: roleInput.optional(),
  },
  output: z.object({
    document: documentOutput,
    changed: z.array(z.string()).max(10).describe('The fields this call set'),
  }),
  mutates: 'write',
  idempotencyKey: {
    describe: 'document_id + the fields given',
    of: (input) => `${input.document_id}:${stableStringify(input)}`,
  },
  setSemantics: true,
  async run({ ctx, input }) {
    const { document_id, ...changes } = input;
    const fields = Object.entries(changes)
      .filter(([, v]) => v !== undefined)
      .map(([k]) => k);
    if (fields.length === 0) {
      throw invalidArg('(arguments)', 'give at least one field to change');
    }
    const doc = await loadDocument(ctx.db, document_id);
    const decisionFields = fields.filter((f) => (DECISION_FIELDS as readonly string[]).includes(f));
    if (changes.role !== undefined && doc.corpus !== 'case') {
      throw invalidArg('role', `only a case document has a role; this is a ${doc.corpus} document`);
    }
    if (decisionFields.length > 0 && doc.corpus !== 'internal' && doc.corpus !== 'library') {
      throw invalidArgs(
        decisionFields.map((f) => ({
          path: f,
          message: `not a field of a ${doc.corpus} document (only internal and library documents have it)`,
        })),
        'These fields apply only to internal and library documents.',
      );
    }
    const roleMoves = changes.role !== undefined && changes.role !== doc.role;
    const rows = await ctx.db.transaction(async (tx) => {
      const updated = await tx
        .update(documents)
        .set({
          title: changes.title,
          number: changes.number,
          decisionDate: changes.decision_date,
          court: changes.court,
          committee: changes.committee,
          parties: changes.parties,
          ...(changes.role === undefined ? {} : { role: changes.role, roleSource: 'given' as const }),
          updatedAt: ctx.now(),
        })
        .where(eq(documents.id, document_id))
        .returning();
      // A new role changes what the analysis reads: its extractors run again in this transaction's wake.
      if (roleMoves && updated[0] !== undefined) await roleChanged(tx, updated[0]);
      return updated;
    });
    if (roleMoves) ctx.jobs.kick();
    const row = one(rows, 'document update');
    return ok({ document: documentView(row), changed: fields }, `Document updated (${fields.join(', ')})`);
  },
});
