import { defineTool } from '../../src/contract/define.ts';
import { pagedOutput } from '../../src/contract/limits.ts';
import { listDecisions, listInput, listItem, listPages } from '../../src/precedents/lookup.ts';

export const internal_decision_list = defineTool({
  name: 'internal_decision_list',
  title: 'The committee’s decisions',
  description:
    'The committee’s own decisions with their metadata, filtered by committee, years, outcome or ' +
    'area, by decision date. internal_decision_get reads one.',
  input: listInput('The committee'),
  output: pagedOutput(listItem),
  mutates: false,
  pages: listPages,
  run: ({ ctx, input, page }) => listDecisions(ctx, 'internal', input, page),
});
