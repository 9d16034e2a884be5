import * as z from 'zod';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { empty, ok } from '../../src/contract/envelope.ts';

export const case_final_text_get = defineTool({
  name: 'case_final_text_get',
  title: 'Read a case’s final decision text',
  description:
    'Reads a case’s final, signed decision text once it has been taken in; until then the result is ' +
    'status "empty": the decision is still being drafted.',
  input: { case_id: caseIdInput },
  output: z.object({
    case_id: z.uuid(),
    case_number: z.string(),
    final_text: z.string().nullable().describe('The signed decision text; null while it is still drafted'),
    ingested_at: z.iso.datetime().nullable().describe('When the final text was taken in'),
  }),
  mutates: false,
  async run({ ctx, input }) {
    const row = await loadLiveCase(ctx.db, input.case_id);
    if (row.finalText === null) {
      return empty(
        { case_id: row.id, case_number: row.caseNumber, final_text: null, ingested_at: null },
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
