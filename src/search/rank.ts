import { withIndexReads } from '../db/index_reads.ts';
import { type SQL, sql } from '../db/orm.ts';
import { executePrepared } from '../db/prepared.ts';
import type { DocumentCorpus } from '../db/schema/documents.ts';
import { type Db, rowsOf } from '../db/types.ts';
import { closestWords } from './fuzzy.ts';
import {
  anyFormTsquery,
  expansionTsquery,
  MAX_EXPANSIONS,
  type QueryTerms,
  surfaceTsquery,
  wordTsquery,
} from './normalize.ts';
import { alternativesTsquery, atLeast, type CoverageGroup, TIER_MAX_WORDS } from './tiers.ts';
import { rerankPage } from './trigram.ts';

/**
 * At most this many of the analysed words go into the ranked SQL (a pasted paragraph is still one bounded
 * query): fewer than analyzeQuery keeps and query_terms lists (MAX_ANALYZED_QUERY_WORDS, normalize.ts).
 */
export const MAX_RANKED_QUERY_WORDS = 24;

export interface SearchFilter {
  corpus: DocumentCorpus;
  /** Only this case's documents (corpus "case"). */
  caseId?: string;
  /** Never these documents (like_case_id: the case's own final decision). */
  exclude?: readonly string[];
}

export interface ChunkHit {
  documentId: string;
  page: number;
  chunk: number;
  score: number;
  text: string;
  title: string;
  caseId: string | null;
  number: string | null;
  decisionDate: string | null;
  court: string | null;
  committee: string | null;
  parties: string | null;
  /**
   * Found through the fuzzy fallback: no passage in scope has the query's words as written, so these have the
   * corpus words closest in spelling (a misspelling's correction, or a different word). Always ranked after
   * exact hits: the fallback runs only when there are none.
   */
  fuzzy: boolean;
}

/** Ranking considers at most this many chunks (the best by full-text score); paging stops there. */
export const MAX_RANKED = 250;
/**
 * How much of the work each query does: stage 1 keeps at most `pool` chunks by coverage (how many query words
 * they have), counted from the index alone; of these, only the ones that can still reach the page are scored
 * from their stored tsvectors (two detoasted per chunk). Within the same coverage the pool takes chunks in the
 * order the index yields them: a very common word (in more chunks than this) is ranked among a sample of them.
 * The best `rerank` by full-text score are re-ranked with trigram similarity, computed beside the query
 * (trigram.ts: ~0.06 ms a chunk; in the database it was 0.17 ms on PostgreSQL, more in PGlite).
 */
export interface RankTuning {
  pool: number;
  rerank: number;
}

/**
 * The tuning searches use: a pool of exactly MAX_RANKED (every chunk scored can be paged to, none is scored in
 * vain) and a re-rank of the first two pages of 10.
 */
export const RANK_TUNING: RankTuning = { pool: MAX_RANKED, rerank: 20 };
/** Stage 1's pool (RANK_TUNING.pool). */
export const CANDIDATE_POOL = RANK_TUNING.pool;

interface Row {
  document_id: string;
  page: number;
  chunk_index: number;
  score: number | string;
  text: string;
  title: string;
  case_id: string | null;
  number: string | null;
  decision_date: string | null;
  court: string | null;
  committee: string | null;
  parties: string | null;
  /** The chunk's normalised text, for the chunks the re-rank compares (null for the others). */
  norm_text: string | null;
}

/**
 * Ranked search over one corpus's ready documents, in two stages so the cost stays bounded:
 * 1. candidates: chunks whose stored tsvector (surface + prefix-stripped forms, `simple` configuration)
 *    contains any form of any query word, counted per word from the GIN index alone (coverage), the best
 *    CANDIDATE_POOL by coverage kept, then scored from their stored tsvectors by
 *    - coverage: the share of query words present in some form (weight 1; the main signal),
 *    - ts_rank of all forms (length-normalised) + half the ts_rank of the surface words only, so an
 *      exact word ranks above a prefix-stripped match;
 *    the best MAX_RANKED go on;
 * 2. the best RANK_TUNING.rerank of those are re-ranked adding 0.3 × word_similarity of the query to the
 *    chunk text (closeness of the words as written, in order), as pg_trgm computes it (trigram.ts).
 * When no chunk in scope contains any query word, the fuzzy fallback replaces each query word by the
 * closest corpus words by trigram similarity (search_terms, GIN trigram index) and searches again:
 * a misspelt word still finds its document.
 * Ties break on document id and chunk index, so the order is stable and offset paging is consistent.
 */
export async function searchChunks(
  db: Db,
  filter: SearchFilter,
  query: QueryTerms,
  page: { limit: number; offset: number },
  options: { fuzzy?: boolean; tuning?: RankTuning } = {},
): Promise<ChunkHit[]> {
  const words = query.words.slice(0, MAX_RANKED_QUERY_WORDS);
  const q: QueryTerms = {
    text: query.text,
    words,
    expansions: (query.expansions ?? []).slice(0, MAX_EXPANSIONS),
  };
  if (words.length === 0 || page.offset >= MAX_RANKED) return [];
  const { ranked, anyForm, scope, rerank } = rankedSql(filter, q, page, options.tuning);
  // Planned on the indexes (src/db/index_reads.ts says why), as a prepared statement where connections last.
  const candidates = await withIndexReads(db, (reader) => executePrepared<Row>(reader, ranked));
  const rows = rerank === null ? candidates : rerankPage(candidates, q.text, rerank);
  if (rows.length === 0 && !options.fuzzy) {
    // Nothing in this scope has any query word: try the corpus words closest to each query word (a
    // misspelling). Decided by the data alone, so every page of the same query takes the same path; an
    // empty first page already proves it (candidates are chosen before the offset).
    const any =
      page.offset === 0
        ? []
        : rowsOf(
            await db.execute(
              sql`select 1 as document_id from document_chunks c join documents d on d.id = c.document_id
                where ${scope} and c.tsv @@ ${anyForm} limit 1`,
            ),
          );
    if (any.length === 0) {
      const corrected = await closestWords(db, words);
      if (corrected.length > 0) {
        return searchChunks(db, filter, { text: q.text, words: corrected }, page, {
          ...options,
          fuzzy: true,
        });
      }
    }
  }
  return rows.map((r) => ({
    documentId: r.document_id,
    page: r.page,
    chunk: r.chunk_index,
    score: Number(r.score),
    text: r.text,
    title: r.title,
    caseId: r.case_id,
    number: r.number,
    decisionDate: r.decision_date,
    court: r.court,
    committee: r.committee,
    parties: r.parties,
    fuzzy: options.fuzzy === true,
  }));
}

/**
 * ts_rank is below 0.1 for any chunk and query (Σ 1/i² < π²/6, and normalisation 1 divides by log2(length + 1)
 * ≥ 1), so a chunk's rank part (ts_rank + half the surface ts_rank) is below 0.15; float4 rounding is the margin.
 * A chunk whose coverage share is this much below the K-th best cannot reach the first K: it is never scored.
 */
const RANK_SPREAD = 0.16;
/**
 * The ranked query of searchChunks (the bench explains it), for words already capped at MAX_RANKED_QUERY_WORDS.
 * Its stages, each bounded:
 * 1. the pool: the best `pool` chunks in scope by coverage (ties in document order), from the GIN index and the
 *    rows' keys alone. For a query of up to TIER_MAX_WORDS unweighted words, by tiers: «all the words», then
 *    «all but one»…, each one GIN query, until a tier has `pool` chunks (only those chunks' rows are read, not
 *    every hit of every word). Otherwise the full tier, then, when it is short of `pool`, one lookup per word
 *    (and per expansion) counted per chunk (weighted for like_case_id);
 * 2. only the pooled chunks that can still reach the first K = max(offset + limit, rerank) are scored from
 *    their stored tsvectors (two detoasted each, the main cost): coverage share + ts_rank of all forms + half the
 *    ts_rank of the surface words; the best K kept;
 * 3. the best `rerank` of those add 0.3 × word_similarity of the query to their text (only for a page that can
 *    show them: past them the order is the score's);
 * 4. the page's rows only are joined for their fields.
 * The page is the same as scoring the whole pool and ordering it all: paging stays consistent.
 */
export function rankedSql(
  filter: SearchFilter,
  q: QueryTerms,
  page: { limit: number; offset: number },
  tuning: RankTuning = RANK_TUNING,
) {
  const words = q.words;
  const limit = Math.min(page.limit, MAX_RANKED - page.offset);
  const depth = Math.max(page.offset + limit, tuning.rerank);
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
  const weighted = expansions.length > 0 || words.some((w) => w.weight !== undefined);
  const weightOf = (w: QueryTerms['words'][number]) => w.weight ?? 1;
  const total = words.reduce((sum, w) => sum + weightOf(w), 0);
  const spanWeight = expansions.map((_, i) =>
    words.filter((w) => spanOf.get(w.surface) === i).reduce((sum, w) => sum + weightOf(w), 0),
  );
  const spanKey = (w: QueryTerms['words'][number], i: number) =>
    spanOf.has(w.surface) ? -1 - (spanOf.get(w.surface) ?? 0) : i;

  const groupsByKey = new Map<number, CoverageGroup>();
  const group = (key: number) => {
    const g = groupsByKey.get(key) ?? { words: [] };
    groupsByKey.set(key, g);
    return g;
  };
  words.forEach((w, i) => {
    group(spanKey(w, i)).words.push({ tsq: wordTsquery(w.forms), weight: weightOf(w) });
  });
  expansions.forEach((e, i) => {
    group(-1 - i).expansion = { tsq: expansionTsquery(e), weight: spanWeight[i] || 1 };
  });
  const groups = [...groupsByKey.values()];
  const best = (g: CoverageGroup) =>
    Math.max(
      g.words.reduce((s, w) => s + w.weight, 0),
      g.expansion?.weight ?? 0,
    );
  const fullCoverage = groups.reduce((s, g) => s + best(g), 0);
  // The full tier: every group at its best (all its words, or its expansion).
  const fullAlternatives = (g: CoverageGroup) => [
    ...(g.words.length > 0 && g.words.reduce((s, w) => s + w.weight, 0) === best(g)
      ? [g.words.map((w) => w.tsq)]
      : []),
    ...(g.expansion !== undefined && g.expansion.weight === best(g) ? [[g.expansion.tsq]] : []),
  ];
  const positive = groups.every((g) => g.words.every((w) => w.weight > 0) && best(g) > 0);
  const fullTsquery = groups.map((g) => `(${alternativesTsquery(fullAlternatives(g))})`).join(' & ');
  const integral = !words.some((w) => w.weight !== undefined);
  const tierQueries: { coverage: number; tsq: string }[] = [];
  if (integral && positive && words.length <= TIER_MAX_WORDS) {
    for (let k = fullCoverage; k >= 1; k--) {
      const alternatives = atLeast(groups, k);
      if (alternatives === null) {
        tierQueries.length = 0;
        break;
      }
      tierQueries.push({ coverage: k, tsq: alternativesTsquery(alternatives) });
    }
  }
  // A tier stops after `pool` chunks in scope, in the order the GIN bitmap yields them (the table's). Its lookup
  // is a CTE of its own so it is planned for every row (the bitmap), yet read only as far as the limit: planned
  // under the limit, a common word's tier became a key-order scan testing every chunk's tsvector.
  const tier = (name: string, coverage: number, tsq: string) =>
    sql`${sql.raw(`${name}_hits`)} as materialized (
      select c.document_id, c.chunk_index from document_chunks c where c.tsv @@ to_tsquery('simple', ${tsq})
    ),
    ${sql.raw(name)} as materialized (
      select h.document_id, h.chunk_index, ${coverage}::float8 as coverage
      from ${sql.raw(`${name}_hits`)} h join documents d on d.id = h.document_id
      where ${scope}
      limit ${tuning.pool}
    )`;
  // Each tier is read only when every tier above it is short of the pool (lazily evaluated init plans).
  const short = (names: readonly string[]) =>
    sql.join(
      names.map((n) => sql`(select count(*) from ${sql.raw(n)}) < ${tuning.pool}`),
      sql` and `,
    );
  let stage1: SQL;
  if (tierQueries.length > 0) {
    const names = tierQueries.map((_, i) => `t${i}`);
    stage1 = sql`${sql.join(
      tierQueries.map((t, i) => tier(names[i] as string, t.coverage, t.tsq)),
      sql`, `,
    )},
    tiers as (${sql.join(
      names.map((n, i) =>
        i === 0
          ? sql`select * from ${sql.raw(n)}`
          : sql`select * from ${sql.raw(n)} where ${short(names.slice(0, i))}`,
      ),
      sql` union all `,
    )}),
    pool as (
      select document_id, chunk_index, max(coverage) as coverage from tiers
      group by document_id, chunk_index
      order by coverage desc, document_id, chunk_index
      limit ${tuning.pool}
    )`;
  } else {
    // One GIN lookup per query word (and per expansion): which chunks have it, in any form. Only the index and
    // the rows' keys are read, never a stored tsvector. Weighted or with expansions: each carries its span.
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
                sql`, ${spanKey(w, i)}::int as span, ${weightOf(w)}::float8 as weight, false as expansion`,
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
      ? sql`select h.document_id, h.chunk_index, count(*)::float8 as coverage from hits h`
      : sql`select h.document_id, h.chunk_index, sum(h.score) as coverage from (
            select document_id, chunk_index, greatest(
              coalesce(sum(weight) filter (where not expansion), 0), coalesce(max(weight) filter (where expansion), 0)
            ) as score
            from hits group by document_id, chunk_index, span
          ) h`;
    const counted = sql`${coverage} join documents d on d.id = h.document_id
        where ${scope}
        group by h.document_id, h.chunk_index
        order by coverage desc, h.document_id, h.chunk_index
        limit ${tuning.pool}`;
    stage1 = positive
      ? sql`${tier('t0', fullCoverage, fullTsquery)},
    -- Materialized: the word lookups run once (inlined, the planner may run them again for every document in
    -- scope: a nested loop seen on PGlite, 0.7 s instead of a few ms); and only when the full tier is short.
    hits as materialized (${perWord}),
    pool as (
      select * from (select * from t0 order by document_id, chunk_index limit ${tuning.pool}) f
      where not (${short(['t0'])})
      union all
      select * from (${counted}) w where ${short(['t0'])}
    )`
      : sql`hits as materialized (${perWord}),
    pool as (${counted})`;
  }
  const scored = sql`candidates as (
      select p.document_id, p.chunk_index,
        p.coverage::float8 / ${total}
          + ts_rank(c.tsv, q.any_form, 1)
          + 0.5 * ts_rank(c.surface_tsv, q.surface, 1) as base
      from q, pool p join document_chunks c on c.document_id = p.document_id and c.chunk_index = p.chunk_index
      where p.coverage >= coalesce(
        (select coverage from pool order by coverage desc limit 1 offset ${depth - 1}), '-infinity'::float8
      ) - ${RANK_SPREAD * total}::float8
      order by base desc, p.document_id, p.chunk_index
      limit ${depth}
    )`;
  // Past the re-ranked chunks, their bonus cannot change which chunks a page has: it is the order by base, and
  // the database pages. A page among them gets all `depth` candidates, the first `rerank` with the text the
  // re-rank compares (searchChunks re-ranks and pages them).
  const reranks = page.offset < tuning.rerank;
  const paged = reranks
    ? sql`paged as (
      select document_id, chunk_index, base as score,
        row_number() over (order by base desc, document_id, chunk_index) <= ${tuning.rerank} as rerank
      from candidates
    )`
    : sql`paged as (
      select document_id, chunk_index, base as score, false as rerank from candidates
      order by base desc, document_id, chunk_index
      limit ${limit} offset ${page.offset}
    )`;
  const ranked = sql`
    with q as materialized (
      select ${anyForm} as any_form, to_tsquery('simple', ${surfaceTsquery(q)}) as surface
    ),
    ${stage1},
    ${scored},
    ${paged}
    select ${fields}, p.score::float8 as score, case when p.rerank then c.norm_text end as norm_text
    from paged p
      join document_chunks c on c.document_id = p.document_id and c.chunk_index = p.chunk_index
      join documents d on d.id = c.document_id
    order by p.score desc, c.document_id, c.chunk_index`;
  const rerank = reranks ? { offset: page.offset, limit } : null;
  return { ranked, anyForm, scope, rerank };
}
