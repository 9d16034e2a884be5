import { defineTool } from '../../src/contract/define.ts';
import { pagedOutput } from '../../src/contract/limits.ts';
import { listDecisions, listInput, listItem, listPages } from '../../src/precedents/lookup.ts';

export const library_list = defineTool({
  name: 'library_list',
  title: 'Rulings in the library',
  description:
    'Lists court rulings (and other committees’ decisions) in the library with their metadata (number, court or committee, date, parties, outcome, practice ' +
    'area), filtered by court, years, proceeding type, outcome, area or numbers, newest first (or oldest). ' +
    'internal_decision_list lists the other corpus.',
  input: listInput('The court'),
  output: pagedOutput(listItem),
  mutates: false,
  pages: listPages,
  run: ({ ctx, input, page }) => listDecisions(ctx, 'library', input, page),
});
