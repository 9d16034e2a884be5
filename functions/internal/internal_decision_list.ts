import { defineTool } from '../../src/contract/define.ts';
import { pagedOutput } from '../../src/contract/limits.ts';
import { listDecisions, listInput, listItem, listPages } from '../../src/precedents/lookup.ts';

export const internal_decision_list = defineTool({
  name: 'internal_decision_list',
  title: 'The committee’s decisions',
  description:
    'Lists the committee’s own decisions with their metadata (number, court or committee, date, parties, outcome, practice ' +
    'area), filtered by court, years, proceeding type, outcome, area or numbers, newest first (or oldest). ' +
    'library_list lists the other corpus.',
  input: listInput('The committee'),
  output: pagedOutput(listItem),
  mutates: false,
  pages: listPages,
  run: ({ ctx, input, page }) => listDecisions(ctx, 'internal', input, page),
});
