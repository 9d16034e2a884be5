import * as z from 'zod';
import { candidateOutput, scheduleCandidates } from '../../src/cases/candidates.ts';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import {
  datesOutput,
  datesView,
  deadlineOf,
  deadlineOutput,
  loadDates,
  loadPanel,
  localDay,
  panelOutput,
  panelView,
} from '../../src/cases/schedule.ts';
import { caseOutput, caseView } from '../../src/cases/views.ts';
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
    const c = await loadLiveCase(ctx.db, input.case_id);
    const dates = datesView(await loadDates(ctx.db, c.id));
    const panel = panelView(await loadPanel(ctx.db, c.id));
    const deadline = deadlineOf(
      dates.decision_due_date,
      localDay(ctx.now()),
      c.status === 'decided' || c.status === 'archived',
    );
    const candidates = await scheduleCandidates(ctx.db, c.id, dates, panel);
    return ok(
      { case: caseView(c), dates, panel, deadline, candidates },
      [
        `Case ${c.caseNumber}`,
        ...(deadline?.warning ? [deadline.warning] : []),
        ...(candidates.length > 0
          ? [`${candidates.length} candidate date(s)/name(s) from the documents`]
          : []),
      ].join('; '),
    );
  },
});
