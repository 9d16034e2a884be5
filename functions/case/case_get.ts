import * as z from 'zod';
import { candidateOutput } from '../../src/cases/candidates.ts';
import { readCaseFile } from '../../src/cases/case_file.ts';
import { caseIdInput } from '../../src/cases/live.ts';
import { datesOutput, deadlineOutput, panelOutput } from '../../src/cases/schedule.ts';
import { caseOutput } from '../../src/cases/views.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';

export const case_get = defineTool({
  name: 'case_get',
  title: 'Read one case file',
  description:
    'Reads one case file: number, title, parties, status, outcome, whether its final text exists, ' +
    'its dates, panel and deadline warning, and dates or names its documents suggest (candidates, ' +
    'unset). case_list finds ids.',
  input: { case_id: caseIdInput },
  output: z.object({
    case: caseOutput,
    dates: datesOutput,
    panel: panelOutput,
    deadline: deadlineOutput,
    candidates: z.array(candidateOutput).max(20).describe('Not set: check before setting'),
  }),
  mutates: false,
  async run({ ctx, input }) {
    const { data, message } = await readCaseFile(ctx.db, input.case_id, ctx.now());
    return ok(data, message);
  },
});
