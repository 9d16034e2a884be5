// Quotes checked against their source: verbatim after normalisation, altered (a near match, at least 85%
// similar, with the words changed), or not found. The source's words are indexed once; a quote's candidate
// places are where its words stand, and only the best few are compared character by character.
import { normalizeHebrew } from '../hebrew/text.ts';

export const ALTERED_AT = 0.85;
/** Quotes shorter than this many words are not checked: too short to tell a quote from a phrase. */
export const MIN_QUOTE_WORDS = 4;

export type QuoteVerdict = 'verbatim' | 'altered' | 'not_found';

export interface QuoteMatch {
  verdict: QuoteVerdict;
  similarity: number;
  /** For altered: the words left out (−) and put in (+), in order. */
  diff: string | null;
  /** The page of the source it was found on (1-based), when found. */
  page: number | null;
}

/** A source's text, normalised and split into words once, with each word's page. */
export interface SourceIndex {
  words: string[];
  /** Each word as written (punctuation around it trimmed), for showing a difference. */
  shown: string[];
  pages: number[];
  positions: Map<string, number[]>;
  joined: string;
}

/** A text's words, normalised, each with the word as written. */
export function wordsOf(text: string): { words: string[]; shown: string[] } {
  const words: string[] = [];
  const shown: string[] = [];
  for (const raw of text.split(/\s+/)) {
    for (const w of normalizeHebrew(raw).split(' ')) {
      if (w === '') continue;
      words.push(w);
      shown.push(raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''));
    }
  }
  return { words, shown };
}

export function indexSource(pages: readonly string[]): SourceIndex {
  const words: string[] = [];
  const shown: string[] = [];
  const pageOf: number[] = [];
  pages.forEach((text, i) => {
    const of = wordsOf(text);
    words.push(...of.words);
    shown.push(...of.shown);
    for (const _ of of.words) pageOf.push(i + 1);
  });
  const positions = new Map<string, number[]>();
  words.forEach((w, i) => {
    const at = positions.get(w);
    if (at === undefined) positions.set(w, [i]);
    else at.push(i);
  });
  return { words, shown, pages: pageOf, positions, joined: ` ${words.join(' ')} ` };
}

/** Levenshtein distance over arrays (words) or strings (characters), in O(n·m) time and O(m) memory. */
export function distance<T>(a: ArrayLike<T>, b: ArrayLike<T>): number {
  if (a.length === 0) return b.length;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

const similarity = (a: string, b: string) =>
  a.length === 0 && b.length === 0 ? 1 : 1 - distance(a, b) / Math.max(a.length, b.length);

/**
 * The words left out and put in between two word lists, by their longest common subsequence; compared in
 * normalised form, shown as written.
 */
export function wordDiff(
  source: readonly string[],
  quote: readonly string[],
  shownSource: readonly string[] = source,
  shownQuote: readonly string[] = quote,
): string {
  const n = source.length;
  const m = quote.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      (lcs[i] as number[])[j] =
        source[i] === quote[j]
          ? ((lcs[i + 1] as number[])[j + 1] ?? 0) + 1
          : Math.max((lcs[i + 1] as number[])[j] ?? 0, (lcs[i] as number[])[j + 1] ?? 0);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && source[i] === quote[j]) {
      i++;
      j++;
    } else if (
      j < m &&
      (i === n || ((lcs[i] as number[])[j + 1] ?? 0) >= ((lcs[i + 1] as number[])[j] ?? 0))
    ) {
      out.push(`+${shownQuote[j]}`);
      j++;
    } else {
      out.push(`−${shownSource[i]}`);
      i++;
    }
  }
  return out.join(' ');
}

/** Where in the source a quote stands, verbatim or nearly. */
export function matchQuote(quote: string, source: SourceIndex): QuoteMatch {
  const { words: q, shown: qShown } = wordsOf(quote);
  const needle = ` ${q.join(' ')} `;
  const exact = source.joined.indexOf(needle);
  if (exact >= 0) {
    // The word index of the match: the spaces before it.
    let words = 0;
    for (let i = 0; i < exact; i++) if (source.joined.charCodeAt(i) === 32) words++;
    return {
      verdict: 'verbatim',
      similarity: 1,
      diff: null,
      page: source.pages[Math.max(0, words - 1)] ?? null,
    };
  }
  // Vote for the start of each window that shares a word with the quote, at the word's place in it.
  const votes = new Map<number, number>();
  q.forEach((w, i) => {
    const at = source.positions.get(w);
    if (at === undefined || at.length > 200) return; // a common word says nothing about where
    for (const p of at) votes.set(p - i, (votes.get(p - i) ?? 0) + 1);
  });
  const best = [...votes.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 5);
  let top: { sim: number; start: number; len: number } | null = null;
  const qText = q.join(' ');
  for (const [start] of best) {
    // Windows a little shorter and longer than the quote: a word dropped or added shifts the end.
    for (const len of [q.length - 2, q.length - 1, q.length, q.length + 1, q.length + 2]) {
      const from = Math.max(0, start);
      if (len <= 0 || from >= source.words.length) continue;
      const sim = similarity(qText, source.words.slice(from, from + len).join(' '));
      if (top === null || sim > top.sim) top = { sim, start: from, len };
    }
  }
  if (top === null || top.sim < ALTERED_AT) {
    return {
      verdict: 'not_found',
      similarity: Math.round((top?.sim ?? 0) * 100) / 100,
      diff: null,
      page: null,
    };
  }
  const window = source.words.slice(top.start, top.start + top.len);
  return {
    verdict: 'altered',
    similarity: Math.round(top.sim * 100) / 100,
    diff: wordDiff(window, q, source.shown.slice(top.start, top.start + top.len), qShown),
    page: source.pages[top.start] ?? null,
  };
}

// Text in quotation marks: „…“, “…”, "…", ״…״ (a gershayim inside a word is an abbreviation, not a quote).
const QUOTED = /(?<![\u05D0-\u05EA])["“„״]([^"“”„״\n]{8,2000}?)["”“״](?![\u05D0-\u05EA])/gu;

export interface FoundQuote {
  text: string;
  start: number;
  end: number;
}

/** Every quotation of at least MIN_QUOTE_WORDS words in a text. */
export function findQuotes(text: string): FoundQuote[] {
  const out: FoundQuote[] = [];
  QUOTED.lastIndex = 0;
  for (let m = QUOTED.exec(text); m !== null; m = QUOTED.exec(text)) {
    const inner = (m[1] ?? '').trim();
    if (normalizeHebrew(inner).split(' ').length >= MIN_QUOTE_WORDS)
      out.push({ text: inner, start: m.index, end: m.index + m[0].length });
  }
  return out;
}
