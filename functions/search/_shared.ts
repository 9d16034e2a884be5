import { z } from 'zod';
import type { ToolContext } from '../../src/contract/define.ts';
import { empty, ok, type ToolResult } from '../../src/contract/envelope.ts';
import { ToolError } from '../../src/contract/errors.ts';
import { sha256Hex, stableStringify } from '../../src/contract/hash.ts';
import { clampLimit, decodeCursor, encodeCursor } from '../../src/contract/limits.ts';
import type { QueryTerms } from '../../src/search/normalize.ts';
import {
  type ChunkHit,
  highlight,
  MAX_RANKED,
  type SearchFilter,
  searchChunks,
} from '../../src/search/rank.ts';

export const queryInput = z
  .string()
  .trim()
  .min(1)
  .max(1000)
  .describe(
    'What to look for, in Hebrew or English: words, a phrase or a citation (e.g. היטל השבחה פטור דירת ' +
      'מגורים, ע"א 1108/97). Niqqud, geresh/gershayim, maqaf and one-letter prefixes (ו ה ב כ ל מ ש) are ' +
      'normalised, so write words naturally; more matching words rank higher.',
  );

/** How deep paging may go (ranking considers the best MAX_RANKED chunks); past it, refine the query. */
const MAX_OFFSET = MAX_RANKED;

export interface SearchHitView {
  document_id: string;
  title: string;
  page: number;
  chunk: number;
  score: number;
  snippet: string;
  case_id?: string | null;
  number?: string | null;
  decision_date?: string | null;
  court?: string | null;
  committee?: string | null;
  parties?: string | null;
}

export const hitDescription =
  'Returns items ranked best first, each with document_id, title, page (1-based), chunk, score, and a ' +
  'snippet with the matched words marked «like this»; read the whole page with document_text_get. Paged ' +
  'with limit and cursor; status "empty" when nothing matches.';

/** Runs a ranked search for one tool: analyses the query, pages by offset, shapes the hits. */
export async function runSearch(
  ctx: ToolContext,
  tool: string,
  filter: SearchFilter,
  query: QueryTerms,
  page: { limit?: number | undefined; cursor?: string | undefined },
  view: (hit: ChunkHit) => Partial<SearchHitView> = () => ({}),
): Promise<ToolResult> {
  const limit = clampLimit(page.limit);
  if (query.words.length === 0) {
    throw new ToolError('invalid_args', 'The query has no words to search for', {
      details: { issues: [{ path: 'query', message: 'only punctuation or marks' }] },
    });
  }
  // The cursor names the query it belongs to, so it cannot continue a different search.
  const fingerprint = sha256Hex(stableStringify({ filter, q: query.words })).slice(0, 16);
  const key = decodeCursor(
    tool,
    page.cursor,
    (k) =>
      k.length === 2 &&
      Number.isInteger(k[0]) &&
      (k[0] as number) > 0 &&
      (k[0] as number) <= MAX_OFFSET &&
      typeof k[1] === 'string',
  );
  if (key !== undefined && key[1] !== fingerprint) {
    throw new ToolError('invalid_args', 'cursor belongs to a different search', {
      details: { issues: [{ path: 'cursor', message: 'issued for other arguments' }] },
      hint: 'Repeat the same arguments with the cursor, or omit cursor to start a new search.',
    });
  }
  const offset = (key?.[0] as number | undefined) ?? 0;
  const rows = await searchChunks(ctx.db, filter, query, { limit: limit + 1, offset });
  const more = rows.length > limit && offset + limit < MAX_OFFSET;
  const items: SearchHitView[] = rows.slice(0, limit).map((hit) => ({
    document_id: hit.documentId,
    title: hit.title,
    page: hit.page,
    chunk: hit.chunk,
    score: Math.round(hit.score * 10_000) / 10_000,
    snippet: highlight(hit.text, query),
    ...view(hit),
  }));
  const data = {
    items,
    limit,
    next_cursor: more ? encodeCursor(tool, [offset + limit, fingerprint]) : null,
    query_terms: query.words.map((w) => w.surface),
  };
  return items.length === 0
    ? empty(data, 'Nothing matches')
    : ok(data, `${items.length} hit(s)${data.next_cursor ? '; more on the next page' : ''}`);
}
