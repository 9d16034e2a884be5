import { defineTool } from '../../src/contract/define.ts';
import { analyzeQuery } from '../../src/search/normalize.ts';
import {
  hitDescription,
  queryInput,
  runSearch,
  searchOutput,
  searchPages,
} from '../../src/search/search_tool.ts';

export const search_library = defineTool({
  name: 'search_library',
  title: 'Search the library of court rulings',
  description:
    'Word search in the library of court rulings; hits carry the ruling’s number, date, court and ' +
    'parties for citing. A hit is a lead to read, not a verified authority. The committee’s own ' +
    `decisions are search_internal. ${hitDescription}`,
  input: { query: queryInput },
  output: searchOutput.library,
  mutates: false,
  pages: searchPages,
  async run({ ctx, input, page }) {
    return runSearch(ctx, page, { corpus: 'library' }, analyzeQuery(input.query), (hit) => ({
      number: hit.number,
      decision_date: hit.decisionDate,
      court: hit.court,
      parties: hit.parties,
    }));
  },
});
