import { defineTool } from '../../src/contract/define.ts';
import { empty, ok } from '../../src/contract/envelope.ts';
import { caseIdInput, loadLiveCase } from './_shared.ts';

export const case_final_text_get = defineTool({
  name: 'case_final_text_get',
  title: 'Read a case’s final decision text',
  description:
    'Reads the final, signed decision text of a case once it has been ingested. Until then the result is ' +
    'status "empty" (not an error): the decision is still being drafted. Use case_get for the case details.',
  input: { case_id: caseIdInput },
  mutates: false,
  async run({ ctx, input }) {
    const row = await loadLiveCase(ctx.db, input.case_id);
    if (row.finalText === null) {
      return empty(
        { case_id: row.id, case_number: row.caseNumber, final_text: null },
        `Case ${row.caseNumber} has no final decision text yet`,
      );
    }
    return ok({
      case_id: row.id,
      case_number: row.caseNumber,
      final_text: row.finalText,
      ingested_at: row.finalTextAt?.toISOString() ?? null,
    });
  },
});
