import * as z from 'zod';
import type { ToolContext } from '../contract/define.ts';
import { invalidArg } from '../contract/errors.ts';
import { offsetPages, type PageRequest, pagedOutput } from '../contract/limits.ts';
import { MAX_ANALYZED_QUERY_WORDS, MAX_EXPANSIONS, type QueryTerms } from './normalize.ts';
import { type ChunkHit, MAX_RANKED, type SearchFilter, searchChunks } from './rank.ts';
import { highlight, matchedExpansions } from './snippet.ts';

export const queryInput = z
  .string()
  .trim()
  .min(1)
  .max(1000)
  .describe(
    'Words as the documents write them, usually Hebrew (e.g. היטל השבחה פטור, ע"א 1108/97), or the field’s ' +
      'English terms (betterment levy, determining date): matched by word, with the legal thesaurus’s ' +
      'synonyms and abbreviations (תב"ע = תכנית בניין עיר). Niqqud, quote marks, prefixes, plene/defective ' +
      'spelling (תוכנית/תכנית, בנייה/בניה) and number forms (7777-19 = 7777/19) are normalised',
  );

/** How deep paging may go (ranking considers the best MAX_RANKED chunks); past it, refine the query. */
export const searchPages = offsetPages(MAX_RANKED);

const hit = {
  document_id: z.uuid(),
  title: z.string(),
  page: z.int().describe('1-based page of the document'),
  chunk: z.int().describe('The passage’s index in the document'),
  score: z.number().describe('Higher is better; comparable within one search'),
  snippet: z.string().describe('The passage with the matched words marked «like this»'),
  fuzzy: z.boolean().describe('Matched similar spellings only: no passage has the words as written'),
};

const decision = {
  number: z.string().nullable().describe('The decision’s or ruling’s number as cited'),
  decision_date: z.string().nullable().describe('YYYY-MM-DD'),
  parties: z.string().nullable(),
};

/** The outputs of the search tools: ranked hits, and the query words as they were searched. */
export const searchOutput = {
  plain: pagedOutput(z.object(hit), { query_terms: queryTerms() }),
  internal: pagedOutput(z.object({ ...hit, ...decision, committee: z.string().nullable() }), {
    query_terms: queryTerms(),
  }),
  library: pagedOutput(z.object({ ...hit, ...decision, court: z.string().nullable() }), {
    query_terms: queryTerms(),
  }),
};

function queryTerms() {
  return z
    .array(z.string())
    .max(MAX_ANALYZED_QUERY_WORDS + MAX_EXPANSIONS)
    .describe(
      'The query’s words searched, as written; then, for a thesaurus term whose synonyms the hits have, ' +
        '«term → synonym; synonym» (e.g. «תב"ע → תכנית בניין עיר»)',
    );
}

export const hitDescription =
  'Hits rank best first, with page and «marked» snippet (document_text_get reads the page).';

/** Runs a ranked search: the page of hits at the page's offset, shaped by `view`. */
export async function runSearch<V extends object>(
  ctx: ToolContext,
  page: PageRequest<readonly [number]>,
  filter: SearchFilter,
  query: QueryTerms,
  view: (hit: ChunkHit) => V,
) {
  if (query.words.length === 0)
    throw invalidArg('query', 'only punctuation or marks: no words to search for');
  const offset = page.after?.[0] ?? 0;
  const rows = await searchChunks(ctx.db, filter, query, { limit: page.limit + 1, offset });
  const more = rows.length > page.limit && offset + page.limit < MAX_RANKED;
  const items = rows.slice(0, page.limit).map((hit) => ({
    document_id: hit.documentId,
    title: hit.title,
    page: hit.page,
    chunk: hit.chunk,
    score: Math.round(hit.score * 10_000) / 10_000,
    snippet: highlight(hit.text, query),
    fuzzy: hit.fuzzy,
    ...view(hit),
  }));
  return {
    ...page.of(items, more ? [offset + page.limit] : null),
    query_terms: [
      ...query.words.map((w) => w.written ?? w.surface),
      ...matchedExpansions(
        rows.slice(0, page.limit).map((h) => h.text),
        query,
      ).map((e) => `${e.written} → ${e.labels.join('; ')}`),
    ],
  };
}
