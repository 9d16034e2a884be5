import { normalizeHebrew } from '../hebrew/text.ts';
import { indexTerms, type QueryTerms } from './normalize.ts';

// The snippets of search results: the densest run of query words, each match marked, and which thesaurus
// expansions the passages shown have.

const SNIPPET_WORDS = 36;

/** Punctuation that ends a sentence or a clause, or closes a quote or bracket, after a word. */
const TRAILING = /[.,;:!?…)\]}»"”’\u05C3-]+$/u;
/** Punctuation that opens a quote or bracket before a word. */
const LEADING = /^[([{«"'“‘-]+/u;

/** A matched word marked «like this», the punctuation around it left outside: «המכריע». not «המכריע.» */
function mark(word: string): string {
  const lead = LEADING.exec(word)?.[0] ?? '';
  const rest = word.slice(lead.length);
  const trail = TRAILING.exec(rest)?.[0] ?? '';
  const core = rest.slice(0, rest.length - trail.length);
  return core === '' ? `«${word}»` : `${lead}«${core}»${trail}`;
}

/**
 * A snippet of the chunk around the densest run of query words, each match wrapped in «…». Matching
 * uses the same normalisation and prefix forms as the index, so ו/ה/ב-prefixed and pointed words match.
 */
export function highlight(text: string, query: QueryTerms): string {
  const wanted = new Set([
    ...query.words.flatMap((w) => w.forms),
    ...(query.expansions ?? []).flatMap((e) => e.alternatives.flatMap((a) => a.words.flat())),
  ]);
  const words = text.split(/\s+/).filter((w) => w !== '');
  const hit = words.map((word) =>
    indexTerms(normalizeHebrew(word), word)
      .split(' ')
      .some((n) => wanted.has(n)),
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
    .map((w, i) => (hit[best + i] ? mark(w) : w))
    .join(' ');
  return `${best > 0 ? '… ' : ''}${body}${end < words.length ? ' …' : ''}`;
}

/**
 * Which thesaurus expansions the passages have: per expansion of the query, the labels of its alternatives
 * found in at least one of `texts` (as the index reads them), in the thesaurus's order.
 */
export function matchedExpansions(
  texts: readonly string[],
  query: QueryTerms,
): { written: string; labels: string[] }[] {
  const expansions = query.expansions ?? [];
  if (expansions.length === 0 || texts.length === 0) return [];
  const present = texts.map((t) => new Set(indexTerms(normalizeHebrew(t), t).split(' ')));
  return expansions.flatMap((e) => {
    const labels = e.alternatives
      .filter((a) => present.some((p) => a.words.every((w) => w.some((f) => p.has(f)))))
      .map((a) => a.label);
    return labels.length === 0 ? [] : [{ written: e.written, labels }];
  });
}
