// The re-rank's word similarity (src/search/trigram.ts) against pg_trgm's word_similarity itself: the same value,
// to float4's precision, for every question of the fixtures against every chunk of the fixture documents (as
// search stores them), and for texts as written (punctuation, capitals, numbers, other scripts). On PGlite and the
// local PostgreSQL, whose pg_trgm builds differ.
import { expect, it } from 'vitest';
import { sql } from '../../src/db/orm.ts';
import { rowsOf } from '../../src/db/types.ts';
import { normalizeHebrew } from '../../src/hebrew/text.ts';
import { chunkPages } from '../../src/search/chunk.ts';
import { wordSimilarity } from '../../src/search/trigram.ts';
import { fixtureDocuments, fixturePages, fixtureQuestions } from '../fixtures/hebrew/corpus.ts';
import { forEachDb } from '../harness/databases.ts';
import { researchDocuments, researchQuestions } from './fixtures/researcher.ts';

const written: [string, string][] = [
  ['', 'שלום עולם'],
  ['שלום', ''],
  ['א', 'א ב א'],
  ['ab', 'xab ab abx'],
  ['AbC dEf', 'abc DEF abcdef'],
  ['12/34 5-6', 'ערר 12/34 מיום 5-6-2020'],
  ['שלום, עולם!', '«שלום» — עולם; ועוד: שלום.'],
  ['הפחתה הפחתה', 'הפחתה בשל זיקת ההנאה, ושוב הפחתה, ושוב הפחתה בשל זיקה'],
  ['זיקת הנאה', `${'מילה אחרת '.repeat(40)}זיקת ההנאה ${'ועוד מילים '.repeat(40)}זיקת הנאה`],
  ['😀 שלום', 'שלום 😀 עולם'],
  ['αβγ δεζ', 'αβγδεζ αβγ δεζ'],
  ['بناء', 'رخصة بناء جديدة'],
  ['סעיף 197', 'לפי סעיף 197 לחוק התכנון והבנייה, התשכ"ה-1965'],
];

forEachDb('search: word similarity as pg_trgm computes it', (getDb) => {
  it('equals word_similarity on every fixture question against every fixture chunk, and on texts as written', async () => {
    const { db } = getDb();
    const texts: string[] = [];
    for (const f of fixtureDocuments)
      texts.push(...chunkPages(await fixturePages(f.name)).map((c) => c.normText));
    for (const d of researchDocuments) texts.push(...chunkPages(d.pages).map((c) => c.normText));
    const queries = [...fixtureQuestions, ...researchQuestions].map((q) => normalizeHebrew(q.query));
    const pairs: [string, string][] = [...written];
    for (const q of queries) for (const t of texts) pairs.push([q, t]);
    expect(pairs.length).toBeGreaterThan(1000);
    const rows = rowsOf<{ w: number | string }>(
      await db.execute(
        sql`select word_similarity(p->>0, p->>1)::float8 as w
          from json_array_elements(${JSON.stringify(pairs)}::json) with ordinality as x(p, i) order by i`,
      ),
    );
    expect(rows).toHaveLength(pairs.length);
    const differ = pairs
      .map(([q, t], i) => ({ q, t: t.slice(0, 60), db: Number(rows[i]?.w), js: wordSimilarity(q, t) }))
      .filter((r) => Math.abs(r.db - r.js) > 1e-6);
    expect(differ).toEqual([]);
    // Not all zeros or ones: the pairs exercise the extents.
    const values = new Set(rows.map((r) => Number(r.w).toFixed(3)));
    expect(values.size).toBeGreaterThan(20);
  });
});
