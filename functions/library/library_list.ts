import { defineTool } from '../../src/contract/define.ts';
import { pagedOutput } from '../../src/contract/limits.ts';
import { listDecisions, listInput, listItem, listPages } from '../../src/precedents/lookup.ts';

export const library_list = defineTool({
  name: 'library_list',
  title: 'Rulings in the library',
  description:
    'Court rulings in the library with their metadata, filtered by court, years, proceeding type, ' +
    'outcome or area, by decision date. library_get reads one.',
  input: listInput('The court'),
  output: pagedOutput(listItem),
  mutates: false,
  pages: listPages,
  run: ({ ctx, input, page }) => listDecisions(ctx, 'library', input, page),
});
