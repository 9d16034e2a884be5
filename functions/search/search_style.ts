import { defineTool } from '../../src/contract/define.ts';
import { analyzeQuery } from '../../src/search/normalize.ts';
import {
  hitDescription,
  queryInput,
  runSearch,
  searchOutput,
  searchPages,
} from '../../src/search/search_tool.ts';

export const search_style = defineTool({
  name: 'search_style',
  title: 'Search the chair’s style examples',
  description:
    'Word search in the chair’s past decisions kept as writing examples, to see how a kind of passage ' +
    '(background, costs, closing) is usually worded. Not a source of law: precedent is ' +
    `search_internal or search_library. ${hitDescription}`,
  input: { query: queryInput },
  output: searchOutput.plain,
  mutates: false,
  pages: searchPages,
  async run({ ctx, input, page }) {
    return runSearch(ctx, page, { corpus: 'style' }, analyzeQuery(input.query), () => ({}));
  },
});
