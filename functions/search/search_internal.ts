import * as z from 'zod';
import { loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { empty } from '../../src/contract/envelope.ts';
import { invalidArg } from '../../src/contract/errors.ts';
import { analyzeQuery, type QueryTerms } from '../../src/search/normalize.ts';
import {
  hitDescription,
  queryInput,
  runSearch,
  searchOutput,
  searchPages,
} from '../../src/search/search_tool.ts';
import { likeCaseQuery, ownDecisions } from '../../src/search/similar.ts';

export const search_internal = defineTool({
  name: 'search_internal',
  title: 'Search the committee’s own decisions',
  description:
    'Word search in the committee’s own past decisions, for consistency with earlier rulings. Give a ' +
    'query, or like_case_id (decisions like that case in substance, its own decision left out), or both. ' +
    'Hits carry the decision’s number, date, committee and parties. ' +
    `${hitDescription}`,
  input: {
    query: queryInput.optional(),
    like_case_id: z.uuid().optional().describe('Find decisions like this case’s documents'),
  },
  output: searchOutput.internal,
  mutates: false,
  pages: searchPages,
  async run({ ctx, input, page }) {
    if (input.query === undefined && input.like_case_id === undefined) {
      throw invalidArg('query', 'required unless like_case_id is given');
    }
    const asked = input.query === undefined ? null : analyzeQuery(input.query);
    let query: QueryTerms | null = asked;
    let exclude: string[] = [];
    if (input.like_case_id !== undefined) {
      const c = await loadLiveCase(ctx.db, input.like_case_id);
      const like = await likeCaseQuery(ctx.db, c);
      if (like === null && asked === null) {
        return empty({ ...page.of([], null), query_terms: [] }, 'The case has no indexed text to compare');
      }
      exclude = await ownDecisions(ctx.db, c);
      query = combine(asked, like);
    }
    if (query === null) throw invalidArg('query', 'only punctuation or marks: no words to search for');
    return runSearch(ctx, page, { corpus: 'internal', exclude }, query, (hit) => ({
      number: hit.number,
      decision_date: hit.decisionDate,
      committee: hit.committee,
      parties: hit.parties,
    }));
  },
});

/** The words asked and the case's terms: the asked words count as much as the case's weightiest term. */
function combine(asked: QueryTerms | null, like: QueryTerms | null): QueryTerms | null {
  if (asked === null || like === null) return asked ?? like;
  const top = Math.max(...like.words.map((w) => w.weight ?? 1));
  const seen = new Set(asked.words.map((w) => w.surface));
  return {
    text: `${asked.text} ${like.text}`,
    words: [
      ...asked.words.map((w) => ({ ...w, weight: top })),
      ...like.words.filter((w) => !seen.has(w.surface)),
    ],
    ...(asked.expansions === undefined ? {} : { expansions: asked.expansions }),
  };
}
