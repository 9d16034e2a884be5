import { defineTool } from '../../src/contract/define.ts';
import { pageInput } from '../../src/contract/limits.ts';
import { analyzeQuery } from '../../src/search/normalize.ts';
import { hitDescription, queryInput, runSearch } from './_shared.ts';

export const search_style = defineTool({
  name: 'search_style',
  title: 'Search the chair’s style examples',
  description:
    'Full-text search in the style corpus: the chair’s past decisions kept as writing examples, to see how ' +
    'a kind of passage (a background, a ruling on costs, a closing) is usually worded. Not a source of law: ' +
    `for precedent use search_internal or search_library. ${hitDescription}`,
  input: { query: queryInput, ...pageInput },
  mutates: false,
  async run({ ctx, input }) {
    return runSearch(ctx, 'search_style', { corpus: 'style' }, analyzeQuery(input.query), input);
  },
});
