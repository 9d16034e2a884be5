import * as z from 'zod';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { ToolError } from '../../src/contract/errors.ts';
import { and, asc, eq } from '../../src/db/orm.ts';
import { documentPages } from '../../src/db/schema/documents.ts';
import { loadDocument, requireReady } from '../../src/documents/views.ts';
import { runView, storeRun, validationOutput } from '../../src/review/runs.ts';
import { validateDocument, validateDraft } from '../../src/review/validate.ts';

export const draft_validate = defineTool({
  name: 'draft_validate',
  title: 'Validate the draft',
  description:
    'Rule checks over the draft (blocks with substance, claims, outcome, header, figures, citations with ' +
    'their approved holdings and negative treatment, quotes incl. pinned precedents’) or a case document ' +
    '(target); each finding says how to fix it; stored.',
  input: {
    case_id: caseIdInput,
    target: z.uuid().optional().describe('A case document to check instead'),
    style_notes: z
      .boolean()
      .optional()
      .describe('Also list typography notes (latin_quote_mark); never errors, never decide validity'),
  },
  output: validationOutput,
  mutates: 'write',
  // Checking again is harmless and must see the draft as it is now: nothing is replayed.
  setSemantics: true,
  idempotencyKey: {
    describe: 'case_id + target + style_notes',
    of: (input) => `${input.case_id}:${input.target ?? 'draft'}:${input.style_notes === true ? 'notes' : ''}`,
  },
  async run({ ctx, input }) {
    const caseRow = await loadLiveCase(ctx.db, input.case_id);
    const now = ctx.now();
    if (input.target === undefined) {
      const { blocks, ...result } = await validateDraft(ctx.db, caseRow, {
        styleNotes: input.style_notes === true,
      });
      const state = blocks.map((b) => [b.key, b.version]);
      const { row, created } = await storeRun(ctx.db, {
        caseId: caseRow.id,
        target: 'draft',
        state: { state, outcome: caseRow.outcome },
        result,
        agent: ctx.agent,
        now,
      });
      const view = runView(row, created);
      return ok(
        view,
        `${view.valid ? 'Valid' : 'Not valid'}: ${view.errors} error(s), ${view.warnings} warning(s)${view.notes > 0 ? `, ${view.notes} style note(s)` : ''} over ${blocks.length} block(s)`,
      );
    }
    const doc = await loadDocument(ctx.db, input.target);
    if (doc.caseId !== caseRow.id) {
      throw new ToolError('not_found', `No document ${input.target} in this case`, {
        details: { case_id: caseRow.id, target: input.target },
        hint: 'Give a document of the same case (document_list with the case_id lists them).',
      });
    }
    requireReady(doc, 'Wait until extraction_status shows it ready, then validate it.');
    const pages = await ctx.db
      .select({ text: documentPages.text })
      .from(documentPages)
      .where(and(eq(documentPages.documentId, doc.id)))
      .orderBy(asc(documentPages.page));
    const result = await validateDocument(
      ctx.db,
      doc.id,
      caseRow.caseNumber,
      pages.map((p) => p.text),
    );
    const { row, created } = await storeRun(ctx.db, {
      caseId: caseRow.id,
      target: doc.id,
      state: doc.sha256,
      result,
      agent: ctx.agent,
      now,
    });
    const view = runView(row, created);
    return ok(
      view,
      `${doc.title}: ${view.citations.length} citation(s), ${view.quotes.length} quote(s), ${view.errors} error(s)`,
    );
  },
});
