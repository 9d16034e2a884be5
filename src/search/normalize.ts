// Search terms over the Hebrew normalisation (src/hebrew/text.ts): what a chunk indexes, the stop words, and a
// query analysed into words and the forms each may stand for; the surface form ranks higher (see rank.ts).
import { MARKS, normalizeHebrew, prefixStripped, tokens } from '../hebrew/text.ts';

/** What a chunk indexes for full-text search: every surface token followed by its prefix-stripped forms. */
export function indexTerms(normalized: string): string {
  const out: string[] = [];
  for (const token of tokens(normalized)) out.push(token, ...prefixStripped(token));
  return out.join(' ');
}

/** Function words that say nothing about a document; dropped from a query unless nothing else is left. */
export const STOP_WORDS = new Set(
  normalizeHebrew(
    'של על את אל עם גם או אם כי לא זה זו זאת הוא היא הם הן אני אנו מה מי איך האם לגבי כל יש אין בין לפי ' +
      'אשר כאשר כמו עד אך רק כן היה היו להיות ידי אותו אותה מן לו לה להם בו בה בהם שם זהו מהו מהי נקבע',
  ).split(' '),
);

export interface QueryTerms {
  /** The normalised query text (trigram matching and snippets). */
  text: string;
  /**
   * Per word: its surface form, the forms it may stand for (itself and prefix-stripped forms), and the word
   * as the user wrote it (shown back: a normalised form with its final letters replaced reads as a typo).
   */
  words: { surface: string; forms: string[]; written?: string }[];
}

/**
 * analyzeQuery keeps at most this many distinct words of a query (the first ones; a longer text is not a
 * query): what query_terms lists. The ranked SQL uses fewer of them (MAX_RANKED_QUERY_WORDS in rank.ts).
 */
export const MAX_ANALYZED_QUERY_WORDS = 64;

/** Analyses a query: normalised, stop words dropped (unless nothing else remains), forms per word. */
export function analyzeQuery(query: string): QueryTerms {
  const text = normalizeHebrew(query);
  const all = [...new Set(tokens(text))];
  const content = all.filter((t) => !STOP_WORDS.has(t));
  const chosen = (content.length > 0 ? content : all).slice(0, MAX_ANALYZED_QUERY_WORDS);
  const written = writtenForms(query);
  return {
    text,
    words: chosen.map((surface) => ({
      surface,
      // A stripped form that is a function word (בשל → של, באת → את) would match nearly every chunk.
      forms: [surface, ...prefixStripped(surface).filter((f) => !STOP_WORDS.has(f))],
      written: written.get(surface) ?? surface,
    })),
  };
}

/** Punctuation around a written word that is not part of it (quote marks inside, as in ע"א, are). */
const EDGES = /^[^\p{L}\p{N}]+|(?<=[\p{L}\p{N}\p{M}])[^\p{L}\p{N}\p{M}\u05F3\u05F4]+$/gu;

/**
 * Each normalised token → the word as written in the query (its marks removed, its own letters kept): the
 * first spelling that normalises to it. A written word that normalises to several tokens (joined by a maqaf
 * or a hyphen) is split at what separates them.
 */
function writtenForms(query: string): Map<string, string> {
  const out = new Map<string, string>();
  const note = (token: string, written: string) => {
    if (!out.has(token)) out.set(token, written.replace(MARKS, ''));
  };
  for (const word of query.normalize('NFC').split(/\s+/)) {
    const bare = word.replace(EDGES, '');
    const normalised = tokens(normalizeHebrew(bare));
    if (normalised.length === 1) note(normalised[0] as string, bare);
    else if (normalised.length > 1) {
      const parts = bare
        .split(/[^\p{L}\p{N}\p{M}'"\u05F3\u05F4/]+/u)
        .filter((p) => tokens(normalizeHebrew(p)).length > 0);
      normalised.forEach((token, i) => {
        const part = parts[i];
        note(token, part !== undefined && normalizeHebrew(part) === token ? part : token);
      });
    }
  }
  return out;
}

/** A tsquery lexeme quoted for `to_tsquery('simple', …)` (normalised tokens hold only letters, digits, / and -). */
const lexeme = (form: string) => `'${form.replace(/'/g, "''")}'`;

/** Any form of any word: candidates and the main rank. Empty string when the query has no words. */
export const anyFormTsquery = (q: QueryTerms): string =>
  q.words.flatMap((w) => w.forms.map(lexeme)).join(' | ');

/** The surface words only: the bonus for exact matches. */
export const surfaceTsquery = (q: QueryTerms): string => q.words.map((w) => lexeme(w.surface)).join(' | ');
