import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import { type DocumentCorpus, documentChunks, documents } from '../db/schema/documents.ts';
import type { Db } from '../db/types.ts';
import {
  anyFormTsquery,
  normalizeHebrew,
  prefixStripped,
  type QueryTerms,
  surfaceTsquery,
} from './normalize.ts';

/** At most this many query words are used (a pasted paragraph is still one bounded query). */
export const MAX_QUERY_WORDS = 24;

export interface SearchFilter {
  corpus: DocumentCorpus;
  /** Only this case's documents (corpus "case"). */
  caseId?: string;
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
}

/**
 * Ranked search over one corpus's ready documents. A chunk is a candidate when it contains any form of any
 * query word (full text, `simple` configuration, over surface + prefix-stripped terms) or resembles the
 * query by trigrams (`<%`, word_similarity ≥ pg_trgm's threshold, catching misspellings). Its score:
 * - coverage: the share of query words it contains in some form (weight 1; the main signal);
 * - ts_rank of all forms (normalised by length) plus half the ts_rank of the surface words only, so an
 *   exact word ranks above a prefix-stripped match;
 * - 0.3 × word_similarity of the query to the chunk (trigrams).
 * Ties break on document id and chunk index: the order is stable, so offset paging is too.
 */
export async function searchChunks(
  db: Db,
  filter: SearchFilter,
  query: QueryTerms,
  page: { limit: number; offset: number },
): Promise<ChunkHit[]> {
  const words = query.words.slice(0, MAX_QUERY_WORDS);
  const q: QueryTerms = { text: query.text, words };
  const tsv = sql`to_tsvector('simple', ${documentChunks.terms})`;
  const anyForm = sql`to_tsquery('simple', ${anyFormTsquery(q)})`;
  const coverage =
    words.length === 0
      ? sql`0`
      : sql.join(
          words.map(
            (w) => sql`(${tsv} @@ to_tsquery('simple', ${w.forms.map((f) => `'${f}'`).join(' | ')}))::int`,
          ),
          sql` + `,
        );
  const score = sql<number>`(
    (${coverage})::float8 / ${Math.max(1, words.length)}
    + ts_rank(${tsv}, ${anyForm}, 1)
    + 0.5 * ts_rank(to_tsvector('simple', ${documentChunks.normText}), to_tsquery('simple', ${surfaceTsquery(q)}), 1)
    + 0.3 * word_similarity(${q.text}, ${documentChunks.normText})
  )::float8`;
  const where: SQL[] = [eq(documents.corpus, filter.corpus), eq(documents.status, 'ready')];
  if (filter.caseId !== undefined) where.push(eq(documents.caseId, filter.caseId));
  where.push(sql`(${tsv} @@ ${anyForm} or ${q.text} <% ${documentChunks.normText})`);
  const rows = await db
    .select({
      documentId: documentChunks.documentId,
      page: documentChunks.page,
      chunk: documentChunks.chunkIndex,
      score,
      text: documentChunks.text,
      title: documents.title,
      caseId: documents.caseId,
      number: documents.number,
      decisionDate: documents.decisionDate,
      court: documents.court,
      committee: documents.committee,
      parties: documents.parties,
    })
    .from(documentChunks)
    .innerJoin(documents, eq(documents.id, documentChunks.documentId))
    .where(and(...where))
    .orderBy(desc(score), asc(documentChunks.documentId), asc(documentChunks.chunkIndex))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map((r) => ({ ...r, score: Number(r.score) }));
}

const SNIPPET_WORDS = 36;

/**
 * A snippet of the chunk around the densest run of query words, each match wrapped in «…». Matching
 * uses the same normalisation and prefix forms as the index, so ו/ה/ב-prefixed and pointed words match.
 */
export function highlight(text: string, query: QueryTerms): string {
  const wanted = new Set(query.words.flatMap((w) => w.forms));
  const words = text.split(/\s+/).filter((w) => w !== '');
  const hit = words.map((word) =>
    normalizeHebrew(word)
      .split(' ')
      .some((n) => n !== '' && (wanted.has(n) || prefixStripped(n).some((f) => wanted.has(f)))),
  );
  let best = 0;
  let bestCount = -1;
  for (let start = 0; start < Math.max(1, words.length - SNIPPET_WORDS + 1); start++) {
    let count = 0;
    for (let i = start; i < Math.min(words.length, start + SNIPPET_WORDS); i++) if (hit[i]) count++;
    if (count > bestCount) {
      best = start;
      bestCount = count;
    }
  }
  const end = Math.min(words.length, best + SNIPPET_WORDS);
  const body = words
    .slice(best, end)
    .map((w, i) => (hit[best + i] ? `«${w}»` : w))
    .join(' ');
  return `${best > 0 ? '… ' : ''}${body}${end < words.length ? ' …' : ''}`;
}
