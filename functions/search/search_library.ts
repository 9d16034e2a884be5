import { defineTool } from '../../src/contract/define.ts';
import { pageInput } from '../../src/contract/limits.ts';
import { analyzeQuery } from '../../src/search/normalize.ts';
import { hitDescription, queryInput, runSearch } from './_shared.ts';

export const search_library = defineTool({
  name: 'search_library',
  title: 'Search the library of court rulings',
  description:
    'Full-text search in the library of external rulings (court judgments added to the library). Each hit ' +
    'carries the ruling’s number, date, court and parties for citing. A hit is a lead to read, not a verified ' +
    `authority. For the committee’s own decisions use search_internal. ${hitDescription}`,
  input: { query: queryInput, ...pageInput },
  mutates: false,
  async run({ ctx, input }) {
    return runSearch(
      ctx,
      'search_library',
      { corpus: 'library' },
      analyzeQuery(input.query),
      input,
      (hit) => ({
        number: hit.number,
        decision_date: hit.decisionDate,
        court: hit.court,
        parties: hit.parties,
      }),
    );
  },
});
