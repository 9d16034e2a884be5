/**
 * Hebrew normalisation, the same for documents and queries (Postgres has no Hebrew stemmer, so search
 * runs on the `simple` configuration over text normalised here, plus pg_trgm):
 * - compatibility forms decomposed (NFKD: presentation forms such as שׁ U+FB2A become letter + mark);
 * - niqqud and cantillation (U+0591–U+05C7) removed, except maqaf U+05BE, paseq U+05C0 and sof pasuq
 *   U+05C3, which separate words and become spaces;
 * - geresh/gershayim (׳ ״) and their look-alikes (' " ‘ ’ “ ” ` ´) inside or right after a Hebrew word
 *   are dropped, so ע"א, ע״א and עא are one token; elsewhere they separate words;
 * - final letters ך ם ן ף ץ become כ מ נ פ צ, so a prefix-stripped or mistyped form still matches;
 * - Latin is lower-cased; every other character except letters, digits and / - between digits is a space.
 *
 * One-letter prefixes ו ה ב כ ל מ ש (and chains such as וה, וכש) cannot be told from a word's own first
 * letter without a lexicon, so documents index both the surface token and its prefix-stripped forms
 * (`indexTerms`) and queries match either; the surface form ranks higher (see rank.ts).
 */

const MARKS = /[\u0591-\u05BD\u05BF\u05C1\u05C2\u05C4-\u05C7]/g;
const WORD_SEPARATORS = /[\u05BE\u05C0\u05C3]/g;
const QUOTES = `'"\u05F3\u05F4\u2018\u2019\u201C\u201D\u201E\u0060\u00B4`;
const HEBREW = '\u05D0-\u05EA';
const QUOTE_IN_WORD = new RegExp(`(?<=[${HEBREW}])[${QUOTES}]+`, 'g');
const FINALS: Record<string, string> = { ך: 'כ', ם: 'מ', ן: 'נ', ף: 'פ', ץ: 'צ' };
const FINAL_RE = /[ךםןףץ]/g;

/** Normalises one text (document or query) to the form that is indexed and searched. */
export function normalizeHebrew(input: string): string {
  return (
    input
      .normalize('NFKD')
      .replace(WORD_SEPARATORS, ' ')
      .replace(MARKS, '')
      .replace(QUOTE_IN_WORD, '')
      .replace(FINAL_RE, (c) => FINALS[c] ?? c)
      .toLowerCase()
      // Keep / and - only between digits (1108/97, 17732-10-16); anything else that is not a letter or digit separates words.
      .replace(/[^\p{L}\p{N}]+/gu, (m: string, at: number, all: string) =>
        (m === '/' || m === '-') && /\d/.test(all[at - 1] ?? '') && /\d/.test(all[at + 1] ?? '') ? m : ' ',
      )
      .trim()
  );
}

/** The words of a normalised text. */
export const tokens = (normalized: string): string[] => (normalized === '' ? [] : normalized.split(' '));

/**
 * The prefix chains stripped: [ו] + [ש | כש | מ] + [ה | ב | כ | ל], at least one letter ("ו", "וה",
 * "וכש", "שב", "מה"…). A chain, not any run of prefix letters, so "השבחה" gives "שבחה" and stops there.
 */
const PREFIXES = (() => {
  const out = new Set<string>();
  for (const a of ['', 'ו'])
    for (const b of ['', 'ש', 'כש', 'מ'])
      for (const c of ['', 'ה', 'ב', 'כ', 'ל']) if (a + b + c !== '') out.add(a + b + c);
  return [...out].sort((x, y) => x.length - y.length);
})();
/** A stripped form keeps at least two letters ("בקו" → "קו": קו בניין, גג), never one. */
const MIN_STEM = 2;

const isHebrewWord = (token: string) => /^[\u05D0-\u05EA]+$/.test(token);

/** The prefix-stripped forms of one normalised token, longest first; [] when it has none. */
export function prefixStripped(token: string): string[] {
  if (!isHebrewWord(token)) return [];
  const forms: string[] = [];
  for (const prefix of PREFIXES) {
    if (token.length - prefix.length >= MIN_STEM && token.startsWith(prefix))
      forms.push(token.slice(prefix.length));
  }
  return forms;
}

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

/** A query searches at most this many distinct words (the first ones); a longer text is not a query. */
export const MAX_QUERY_WORDS = 64;

/** Analyses a query: normalised, stop words dropped (unless nothing else remains), forms per word. */
export function analyzeQuery(query: string): QueryTerms {
  const text = normalizeHebrew(query);
  const all = [...new Set(tokens(text))];
  const content = all.filter((t) => !STOP_WORDS.has(t));
  const chosen = (content.length > 0 ? content : all).slice(0, MAX_QUERY_WORDS);
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
