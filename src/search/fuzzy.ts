import { sql } from '../db/orm.ts';
import { type Db, rowsOf } from '../db/types.ts';
import { type QueryTerms, spellingKey } from './normalize.ts';

/**
 * Up to three corpus words per query word by trigram similarity (pg_trgm `%`, its similarity_threshold), in
 * one statement for all the words (a lateral query per word over the vocabulary's trigram index).
 */
export async function closestWords(db: Db, words: QueryTerms['words']): Promise<QueryTerms['words']> {
  const wanted = words.filter((w) => w.surface.length >= 3);
  if (wanted.length === 0) return [];
  const rows = rowsOf<{ i: number | string; term: string }>(
    await db.execute(
      sql`select w.i, t.term
        from unnest(${`{${wanted.map((w) => `"${w.surface}"`).join(',')}}`}::text[]) with ordinality as w(word, i)
        cross join lateral (
          select term from search_terms where term % w.word order by similarity(term, w.word) desc, term limit 3
        ) t
        order by w.i`,
    ),
  );
  return wanted.flatMap((w, i) => {
    const forms = rows.filter((r) => Number(r.i) === i + 1).map((r) => r.term);
    return forms.length === 0
      ? []
      : [
          {
            surface: w.surface,
            // The index holds spelling keys (terms@2) and, before a document is indexed again, the words as they are.
            forms: [...new Set(forms.flatMap((f) => [spellingKey(f), f]))],
            ...(w.written === undefined ? {} : { written: w.written }),
          },
        ];
  });
}
