// pg_trgm's word_similarity, computed where the ranked search re-ranks its first hits (rank.ts). In the database
// it was most of a search's cost (~0.17 ms a chunk on PostgreSQL, more in PGlite's wasm: each trigram of a
// Hebrew word is hashed, then all are sorted); here it is a pass over strings the query already returns.

const WORD_CHAR = /[\p{L}\p{N}]/u;
const SPACE = 32;
/** The answers of isWordChar for the Basic Multilingual Plane, filled as met (0: not known yet, 1: yes, 2: no). */
const wordCharOf = new Uint8Array(0x10000);
/** Whether a code point is a word character, as pg_trgm takes one in a UTF-8 database (a letter or a digit). */
function isWordChar(code: number): boolean {
  if (code > 0xffff) return WORD_CHAR.test(String.fromCodePoint(code));
  let known = wordCharOf[code] as number;
  if (known === 0) {
    known = WORD_CHAR.test(String.fromCharCode(code)) ? 1 : 2;
    wordCharOf[code] = known;
  }
  return known === 1;
}

/**
 * A text's trigrams in order, as pg_trgm makes them: each word (letters and digits, lower-cased) padded with two
 * spaces before and one after, every three consecutive characters of it («  a», « ab», «abc», «bc »). A trigram
 * is numbered by `ids` (a new one gets the next number), and its number is what the text's sequence holds.
 */
function trigramIds(
  text: string,
  ids: Map<number | string, number>,
  alphabet: Map<number, number>,
): number[] {
  const out: number[] = [];
  const lower = text.toLowerCase();
  // Characters are numbered (space is 0) so that a trigram is one small integer key: ASCII and Hebrew by their
  // code, anything else in the order met.
  const letter = (code: number) => {
    if (code < 0x80) return code;
    if (code >= 0x590 && code < 0x600) return code - 0x510;
    let n = alphabet.get(code);
    if (n === undefined) {
      n = 0xf0 + alphabet.size;
      alphabet.set(code, n);
    }
    return n;
  };
  const push = (a: number, b: number, c: number) => {
    // Three character numbers below 1,024 make a small-integer key (a text has far fewer distinct characters).
    const key = a < 1024 && b < 1024 && c < 1024 ? (a * 1024 + b) * 1024 + c : `${a},${b},${c}`;
    let id = ids.get(key);
    if (id === undefined) {
      id = ids.size;
      ids.set(key, id);
    }
    out.push(id);
  };
  let p1 = 0; // the character before the last one (0: a space)
  let p2 = 0; // the last character
  let inWord = false;
  for (let i = 0; i < lower.length; i++) {
    const code = lower.codePointAt(i) as number;
    if (code > 0xffff) i++;
    if (code !== SPACE && isWordChar(code)) {
      const c = letter(code);
      if (!inWord) {
        inWord = true;
        p1 = 0;
        p2 = 0;
      }
      push(p1, p2, c);
      p1 = p2;
      p2 = c;
    } else if (inWord) {
      push(p1, p2, 0);
      inWord = false;
    }
  }
  if (inWord) push(p1, p2, 0);
  return out;
}

/** pg_trgm's CALCSML in float4 (so scores and their ties are the database's). */
const similarityOf = (count: number, queryTrigrams: number, extentTrigrams: number) =>
  Math.fround(count / Math.fround(queryTrigrams + extentTrigrams - count));

/**
 * `word_similarity(query, text)` of pg_trgm: the greatest similarity between the query's set of trigrams and
 * any continuous extent of the text's ordered trigrams — 1 when the query's words appear as written, in order.
 * The same algorithm as the extension's (calc_word_similarity and iterate_word_similarity, without the
 * threshold's early exit), on the trigrams themselves where pg_trgm keeps a 3-byte hash of a multibyte one;
 * test/search/trigram.test.ts holds it to the extension's value on both databases.
 */
export function wordSimilarity(query: string, text: string): number {
  const ids = new Map<number | string, number>();
  const alphabet = new Map<number, number>();
  trigramIds(query, ids, alphabet);
  const queryCount = ids.size;
  if (queryCount === 0) return 0;
  const found = (id: number) => id < queryCount;
  const order = trigramIds(text, ids, alphabet);
  // The last position of each trigram inside the current extent, -1 when outside it.
  const lastPos = new Int32Array(ids.size).fill(-1);
  let extentCount = 0;
  let count = 0;
  let lower = -1;
  let best = 0;
  for (let i = 0; i < order.length; i++) {
    const id = order[i] as number;
    if (lower >= 0 || found(id)) {
      if ((lastPos[id] as number) < 0) {
        extentCount++;
        if (found(id)) count++;
      }
      lastPos[id] = i;
    }
    if (!found(id)) continue;
    // A query trigram: the extent may end here; try every later start for a greater similarity.
    const upper = i;
    if (lower === -1) {
      lower = i;
      extentCount = 1;
    }
    let current = similarityOf(count, queryCount, extentCount);
    let tmpCount = count;
    let tmpExtent = extentCount;
    const previousLower = lower;
    for (let start = lower; start <= upper; start++) {
      const candidate = similarityOf(tmpCount, queryCount, tmpExtent);
      if (candidate > current) {
        current = candidate;
        extentCount = tmpExtent;
        lower = start;
        count = tmpCount;
      }
      const startId = order[start] as number;
      if (lastPos[startId] === start) {
        tmpExtent--;
        if (found(startId)) tmpCount--;
      }
    }
    if (current > best) best = current;
    for (let start = previousLower; start < lower; start++) {
      const startId = order[start] as number;
      if (lastPos[startId] === start) lastPos[startId] = -1;
    }
  }
  return best;
}

/** What the re-rank needs of a candidate: its full-text score, its keys, and its text when it is re-ranked. */
interface Candidate {
  score: number | string;
  document_id: string;
  chunk_index: number;
  /** The chunk's normalised text for the candidates re-ranked; null for the others. */
  norm_text: string | null;
}

/**
 * The re-rank of the ranked search: each candidate with its text adds 0.3 × word_similarity of the query to its
 * score; all are ordered again (ties on document id and chunk index, as the database orders them) and the page
 * is cut out.
 */
export function rerankPage<C extends Candidate>(
  candidates: readonly C[],
  query: string,
  page: { offset: number; limit: number },
): (C & { score: number })[] {
  const scored = candidates.map((c) => ({
    ...c,
    score: Number(c.score) + (c.norm_text === null ? 0 : 0.3 * wordSimilarity(query, c.norm_text)),
  }));
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      (a.document_id < b.document_id
        ? -1
        : a.document_id > b.document_id
          ? 1
          : a.chunk_index - b.chunk_index),
  );
  return scored.slice(page.offset, page.offset + page.limit);
}
