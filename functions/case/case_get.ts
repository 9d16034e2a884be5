import { z } from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { caseIdInput, loadLiveCase } from '../../src/domain/cases.ts';
import { caseOutput, caseView } from './_shared.ts';

export const case_get = defineTool({
  name: 'case_get',
  title: 'Read one case file',
  description:
    'Reads one appeal case file by id: number, title, parties, committee, status, outcome and whether a ' +
    'final decision text exists (read that with case_final_text_get). Use case_list to find ids. ' +
    'A deleted or unknown id is not_found.',
  input: { case_id: caseIdInput },
  output: z.object({ case: caseOutput }),
  mutates: false,
  async run({ ctx, input }) {
    return { case: caseView(await loadLiveCase(ctx.db, input.case_id)) };
  },
});
