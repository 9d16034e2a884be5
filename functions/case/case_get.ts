import * as z from 'zod';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import { caseOutput, caseView } from '../../src/cases/views.ts';
import { defineTool } from '../../src/contract/define.ts';

export const case_get = defineTool({
  name: 'case_get',
  title: 'Read one case file',
  description:
    'Reads one case file: number, title, parties, committee, status, outcome and whether its final ' +
    'decision text exists (case_final_text_get reads it). case_list finds ids.',
  input: { case_id: caseIdInput },
  output: z.object({ case: caseOutput }),
  mutates: false,
  async run({ ctx, input }) {
    return { case: caseView(await loadLiveCase(ctx.db, input.case_id)) };
  },
});
