/**
 * The ranked query path before the staged ranking (bench only): the same words and tuning, every pooled chunk
 * scored from both stored tsvectors and joined three times. `npm run bench` runs it beside searchChunks, in the
 * same transaction settings, so the after/before ratio is measured in one run.
 */

import { indexReadSettings } from '../src/db/index_reads.ts';
import { type SQL, sql } from '../src/db/orm.ts';
import { type Db, rowsOf } from '../src/db/types.ts';
import {
  anyFormTsquery,
  expansionTsquery,
  MAX_EXPANSIONS,
  type QueryTerms,
  surfaceTsquery,
  wordTsquery,
} from '../src/search/normalize.ts';
import { MAX_RANKED, MAX_RANKED_QUERY_WORDS, type SearchFilter } from '../src/search/rank.ts';

/** The baseline's page of (document, chunk, score), run as searchChunks runs its query (no fuzzy fallback). */
export async function baselineSearch(
  db: Db,
  filter: SearchFilter,
  query: QueryTerms,
  page: { limit: number; offset: number },
): Promise<{ document_id: string; chunk_index: number; score: number }[]> {
  const q: QueryTerms = {
    text: query.text,
    words: query.words.slice(0, MAX_RANKED_QUERY_WORDS),
    expansions: (query.expansions ?? []).slice(0, MAX_EXPANSIONS),
  };
  if (q.words.length === 0 || page.offset >= MAX_RANKED) return [];
  const ranked = baselineRankedSql(filter, q, page);
  return db.transaction(async (tx) => {
    await tx.execute(indexReadSettings);
    return rowsOf<{ document_id: string; chunk_index: number; score: number }>(await tx.execute(ranked));
  });
}

/** The ranked query as it was (frozen here), for words already capped at MAX_RANKED_QUERY_WORDS. */
export function baselineRankedSql(
  filter: SearchFilter,
  q: QueryTerms,
  page: { limit: number; offset: number },
  tuning: { pool: number; rerank: number } = { pool: MAX_RANKED, rerank: 20 },
) {
  const words = q.words;
  const limit = Math.min(page.limit, MAX_RANKED - page.offset);
  const anyForm = sql`to_tsquery('simple', ${anyFormTsquery(q)})`;
  const scope = sql`d.corpus = ${filter.corpus} and d.status = 'ready'${
    filter.caseId === undefined ? sql`` : sql` and d.case_id = ${filter.caseId}`
  }${
    filter.exclude === undefined || filter.exclude.length === 0
      ? sql``
      : sql` and d.id <> all(${`{${filter.exclude.join(',')}}`}::uuid[])`
  }`;
  const fields = sql`c.document_id, c.page, c.chunk_index, c.text, d.title, d.case_id, d.number,
    to_char(d.decision_date, 'YYYY-MM-DD') as decision_date, d.court, d.committee, d.parties`;
  const expansions = q.expansions ?? [];
  // A thesaurus expansion stands for the query's words it expands (its span): a chunk has the span when it
  // has the synonym, or as many of the span's words as it has itself, whichever is more; never both added.
  const spanOf = new Map<string, number>();
  expansions.forEach((e, i) => {
    for (const s of e.surfaces) if (!spanOf.has(s)) spanOf.set(s, i);
  });
  const lookup = (tsq: string, extra: SQL) =>
    sql`select c.document_id, c.chunk_index${extra} from document_chunks c where c.tsv @@ to_tsquery('simple', ${tsq})`;
  // One GIN lookup per query word (and per expansion): which chunks in scope have it, in any form. Only the
  // index and the rows' keys are read, never a stored tsvector (detoasting one per matching chunk was the cost).
  // Weighted (like_case_id's words by rarity) or with expansions: each lookup carries its span and weight.
  const weighted = expansions.length > 0 || words.some((w) => w.weight !== undefined);
  const weightOf = (w: QueryTerms['words'][number]) => w.weight ?? 1;
  const total = words.reduce((sum, w) => sum + weightOf(w), 0);
  const spanWeight = expansions.map((_, i) =>
    words.filter((w) => spanOf.get(w.surface) === i).reduce((sum, w) => sum + weightOf(w), 0),
  );
  const perWord = !weighted
    ? sql.join(
        words.map((w) => lookup(wordTsquery(w.forms), sql``)),
        sql` union all `,
      )
    : sql.join(
        [
          ...words.map((w, i) =>
            lookup(
              wordTsquery(w.forms),
              sql`, ${spanOf.has(w.surface) ? -1 - (spanOf.get(w.surface) ?? 0) : i}::int as span, ${weightOf(w)}::float8 as weight, false as expansion`,
            ),
          ),
          ...expansions.map((e, i) =>
            lookup(
              expansionTsquery(e),
              sql`, ${-1 - i}::int as span, ${spanWeight[i] || 1}::float8 as weight, true as expansion`,
            ),
          ),
        ],
        sql` union all `,
      );
  const coverage = !weighted
    ? sql`select h.document_id, h.chunk_index, count(*) as coverage from hits h`
    : sql`select h.document_id, h.chunk_index, sum(h.score) as coverage from (
          select document_id, chunk_index, greatest(
            coalesce(sum(weight) filter (where not expansion), 0), coalesce(max(weight) filter (where expansion), 0)
          ) as score
          from hits group by document_id, chunk_index, span
        ) h`;
  const ranked = sql`
    with q as materialized (
      select ${anyForm} as any_form, to_tsquery('simple', ${surfaceTsquery(q)}) as surface
    ),
    -- Materialized: the word lookups run once. Inlined, the planner may run them again for every document in
    -- scope (a nested loop seen on PGlite: 260 documents × the lookups, 0.7 s instead of a few ms).
    hits as materialized (${perWord}),
    pool as (
      ${coverage} join documents d on d.id = h.document_id
      where ${scope}
      group by h.document_id, h.chunk_index
      order by coverage desc, h.document_id, h.chunk_index
      limit ${tuning.pool}
    ),
    candidates as (
      select p.document_id, p.chunk_index,
        p.coverage::float8 / ${total}
          + ts_rank(c.tsv, q.any_form, 1)
          + 0.5 * ts_rank(c.surface_tsv, q.surface, 1) as base
      from q, pool p join document_chunks c on c.document_id = p.document_id and c.chunk_index = p.chunk_index
      order by base desc, p.document_id, p.chunk_index
      limit ${MAX_RANKED}
    ),
    numbered as (
      select k.*, row_number() over (order by k.base desc, k.document_id, k.chunk_index) as rn from candidates k
    )
    select ${fields},
      (k.base + case when k.rn <= ${tuning.rerank} then 0.3 * word_similarity(${q.text}, c.norm_text) else 0 end)::float8 as score
    from numbered k
      join document_chunks c on c.document_id = k.document_id and c.chunk_index = k.chunk_index
      join documents d on d.id = c.document_id
    order by score desc, c.document_id, c.chunk_index
    limit ${limit} offset ${page.offset}`;
  return ranked;
}
