/**
 * Hebrew as text, the one normalisation every reader and every search uses (documents and queries alike;
 * Postgres has no Hebrew stemmer, so search runs on the `simple` configuration over text normalised here):
 * - compatibility forms decomposed (NFKD: presentation forms such as שׁ U+FB2A become letter + mark);
 * - niqqud and cantillation (U+0591–U+05C7) removed, except maqaf U+05BE, paseq U+05C0 and sof pasuq
 *   U+05C3, which separate words and become spaces;
 * - geresh/gershayim (׳ ״) and their look-alikes (' " ‘ ’ “ ” ` ´) inside or right after a Hebrew word
 *   are dropped, so ע"א, ע״א and עא are one token; elsewhere they separate words;
 * - final letters ך ם ן ף ץ become כ מ נ פ צ, so a prefix-stripped or mistyped form still matches;
 * - Latin is lower-cased; every other character except letters, digits and / - between digits is a space.
 *
 * One-letter prefixes ו ה ב כ ל מ ש (and chains such as וה, וכש) cannot be told from a word's own first
 * letter without a lexicon: `prefixStripped` gives the forms a token may stand for, and search indexes and
 * matches both (src/search/normalize.ts).
 */

/** Niqqud and cantillation, except the marks that separate words (for `replace`). */
export const MARKS = /[\u0591-\u05BD\u05BF\u05C1\u05C2\u05C4-\u05C7]/g;
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
