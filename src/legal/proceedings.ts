// Proceeding numbers as rulings and decisions cite them, to one key per proceeding: the proceeding's kind
// (עע"מ, בג"ץ, ע"א, רע"א, דנ"א, עת"מ, ערר, …) in one spelling, then its number in the style it was given:
// old «number/yy» (עע"מ 9001/19, also 9001/2019 and a committee's 44-17) or the district courts' «number-mm-yy»
// (עת"מ 12345-05-20). Every quote-mark form (" ' ״ ׳ ׳׳ ” ’), with or without spaces, a one- or two-letter
// prefix (בעע"מ, ובג"ץ), «מס'», a court in parentheses (עת"מ (ת"א) …) and a local committee's prefix
// (ערר בב/6010/16) are read; the court and the local prefix are left out of the key, so every written form
// of one number is one key. Dotted kinds (ת.א., ע.א.), kinds in words (המרצת פתיחה, ערעור אזרחי, עררים),
// a party's name before the number (בר"ם שושן 5521/15), joined and ranged numbers (71+72/10, 203-206/11)
// and lists under one kind (ערר 140/08, 152/08) give a key each. Garbage is no proceeding, never an
// exception. `citationKey` is the one key a citation is stored, looked up and resolved by (citation graph,
// pinned precedents, draft_validate, drafting).
import { normalizeHebrew } from '../hebrew/text.ts';
import { DASH, Q } from './text.ts';

/** The kinds, by their letters without quote marks (final letters folded), to their canonical spelling. */
const KINDS: Record<string, string> = {
  עעמ: 'עע"מ',
  בגצ: 'בג"ץ',
  דנגצ: 'דנג"ץ',
  עא: 'ע"א',
  רעא: 'רע"א',
  דנא: 'דנ"א',
  עתמ: 'עת"מ',
  עמנ: 'עמ"נ',
  ברמ: 'בר"מ',
  עפ: 'ע"פ',
  רעפ: 'רע"פ',
  דנפ: 'דנ"פ',
  הפ: 'ה"פ',
  תא: 'ת"א',
  בשא: 'בש"א',
  ערר: 'ערר',
  צא: 'צ"א',
  // Building offences and their appeals, and the magistrates' and district courts' other civil kinds.
  תפ: 'ת"פ',
  תוב: 'תו"ב',
  עפג: 'עפ"ג',
  עפא: 'עפ"א',
  תאמ: 'תא"מ',
  תצ: 'ת"צ',
};
/** Kinds whose letters without a quote mark are a word («תאם»): read only with one. */
const QUOTED_ONLY = new Set(['תאמ', 'תוב']);

/** Kinds written out in words (or in the plural), by their letters (finals folded), to the kind cited. */
const SPELLED: Record<string, string> = {
  המרצתפתיחה: 'ה"פ',
  ערעוראזרחי: 'ע"א',
  עררימ: 'ערר',
};
const SPELLED_ALTERNATIVES = ['המרצת\\s+פתיחה', 'ערעור\\s+אזרחי', 'עררים'];

export const proceedingKinds: readonly string[] = Object.values(KINDS);

const fold = (letters: string) =>
  letters.replace(/ץ/g, 'צ').replace(/ם/g, 'מ').replace(/ן/g, 'נ').replace(/ך/g, 'כ').replace(/ף/g, 'פ');

/** A kind's letters with quote marks (and spaces around them) allowed between any two letters. */
const kindPattern = (letters: string): string => {
  const chars = [...letters].map((c) => {
    const finals: Record<string, string> = { צ: '[צץ]', מ: '[מם]', נ: '[נן]', פ: '[פף]' };
    return finals[c] ?? c;
  });
  // Two-letter kinds (ע"א, ת"א) need their quote mark, or dots (ת.א., ע.א.): bare they are ordinary words.
  // The mark before the last letter (תו"ב, תא"מ), or a dot after each.
  if (QUOTED_ONLY.has(letters))
    return `(?:${chars.slice(0, -1).join('')}\\s?${Q}{1,2}\\s?${chars.at(-1)}|${chars.join('\\.')}\\.?)`;
  if (letters.length === 2) return `(?:${chars.join(`\\s?${Q}{1,2}\\s?`)}|${chars.join('\\.')}\\.?)`;
  return chars.join(`(?:\\s?${Q}{1,2}\\s?)?`);
};

const KIND_ALTERNATIVES = Object.keys(KINDS)
  .sort((a, b) => b.length - a.length)
  .map(kindPattern)
  .concat(SPELLED_ALTERNATIVES)
  .join('|');

const YEAR = '(?:19|20)?\\d{2}';
/** number-mm-yy (district), number/yy or number-yy (old), each part with or without spaces around the mark. */
const NUMBER =
  `(?:(?<joined>(?:\\d{1,6}\\s?\\+\\s?)+)|(?<from>\\d{1,6})\\s?${DASH}\\s?(?=\\d{1,6}\\s?\\/))?` +
  `(?<n>\\d{1,6})\\s?(?:${DASH}\\s?(?<mm>0?[1-9]|1[0-2])\\s?${DASH}\\s?(?<dy>${YEAR})` +
  `|(?:\\/|${DASH})\\s?(?<oy>${YEAR}))(?![\\d\\/])`;

/**
 * A party's name may stand between the kind and the number («בר"מ שושן 5521/15»), one word; words that open
 * a date («ערר מיום 05-03-20») do not, nor after ת"א (the city: «ת"א רחוב…»).
 */
const DATE_WORDS = '(?:ביום|מיום|היום|מתאריך|בתאריך|עד|משנת|בשנת|שנת|מספר)';

const PROCEEDING = new RegExp(
  `(?<![א-ת\\d])(?:[ובלמהכש]{1,2})?(?<kind>${KIND_ALTERNATIVES})(?![א-ת])` +
    `\\s*(?:\\((?<court>[^()\\d]{1,25})\\)\\s*)?(?:מס(?:${Q}|פר)\\s*[:.]?\\s*)?` +
    `(?:(?<party>(?!${DATE_WORDS}\\s)[א-ת]{2,10})\\s+)?(?:[א-ת]{1,4}\\/)?${NUMBER}`,
  'g',
);

export interface FoundProceeding {
  /** The normalised key, e.g. «עע"מ 9001/19», «עת"מ 12345-05-20». */
  key: string;
  kind: string;
  /** Where it is written (the kind's first letter, a prefix letter left out, to the number's end). */
  start: number;
  end: number;
  text: string;
}

const twoDigits = (year: string) => year.slice(-2);

/** The canonical kind of letters as written (quote marks and spaces dropped), or null. */
export function proceedingKind(written: string): string | null {
  const letters = fold(written.replace(new RegExp(`${Q}|\\s|\\.`, 'g'), ''));
  return KINDS[letters] ?? SPELLED[letters] ?? null;
}

/** More numbers of the same kind after one, each after a comma or «ו-» («בערר 140/08, 152/08»). */
const LISTED = new RegExp(
  `^(?:\\s?,\\s?|\\s+ו\\s?${DASH}?\\s?)(?:(?<n>\\d{1,6})\\s?\\/\\s?(?<oy>${YEAR})` +
    `|(?<dn>\\d{3,6})${DASH}(?<mm>0[1-9]|1[0-2])${DASH}(?<dy>\\d{2}))(?![\\d\\/])`,
);
/** At most this many numbers read from one range («ערר 203-206/11»): a longer one is no range. */
const MAX_RANGE = 20;

/** The numbers one written number stands for: itself, those joined to it (71+72/10), or a range (203-206/11). */
function numbersOf(g: Record<string, string | undefined>, n: number): number[] {
  if (g.joined !== undefined) return [...(g.joined.match(/\d+/g) ?? []).map(Number), n];
  const from = g.from === undefined ? n : Number(g.from);
  if (from >= n || n - from >= MAX_RANGE) return [n];
  return Array.from({ length: n - from + 1 }, (_, i) => from + i);
}

/** Every proceeding number in a text, in order, with offsets. */
export function findProceedings(text: string): FoundProceeding[] {
  const out: FoundProceeding[] = [];
  PROCEEDING.lastIndex = 0;
  for (let m = PROCEEDING.exec(text); m !== null; m = PROCEEDING.exec(text)) {
    const g = m.groups ?? {};
    const kind = proceedingKind(g.kind ?? '');
    if (kind === null || g.n === undefined) continue;
    if (g.party !== undefined && kind === 'ת"א') {
      // Not a party: read again from after the kind (a number further on may still be a proceeding).
      PROCEEDING.lastIndex = m.index + m[0].indexOf(g.kind ?? '') + (g.kind ?? '').length;
      continue;
    }
    const district = g.mm !== undefined && g.dy !== undefined;
    const keyOf = (n: number) =>
      district
        ? `${kind} ${n}-${(g.mm ?? '').padStart(2, '0')}-${twoDigits(g.dy ?? '')}`
        : `${kind} ${n}/${twoDigits(g.oy ?? '')}`;
    let end = m.index + m[0].length;
    // The prefix letters (ב, ו…) are not part of the citation.
    const start = end - m[0].length + m[0].indexOf(g.kind ?? '');
    const numbers = district ? [Number(g.n)] : numbersOf(g, Number(g.n));
    for (const n of new Set(numbers))
      out.push({ key: keyOf(n), kind, start, end, text: text.slice(start, end) });
    for (let l = LISTED.exec(text.slice(end)); l !== null; l = LISTED.exec(text.slice(end))) {
      const lg = l.groups ?? {};
      const at = end + l[0].search(/\d/);
      end += l[0].length;
      const key =
        lg.dn !== undefined
          ? `${kind} ${Number(lg.dn)}-${lg.mm}-${lg.dy}`
          : `${kind} ${Number(lg.n)}/${twoDigits(lg.oy ?? '')}`;
      out.push({ key, kind, start: at, end, text: text.slice(at, end) });
    }
    PROCEEDING.lastIndex = end;
  }
  return out;
}

/** One written proceeding number as its key, or null when the text is not exactly one. */
export function normalizeProceeding(text: string): string | null {
  const trimmed = text.trim();
  const [only, ...rest] = findProceedings(trimmed);
  if (only === undefined || rest.length > 0) return null;
  const before = trimmed.slice(0, only.start);
  return /^[ובלמהכש]{0,2}$/.test(before) && only.end === trimmed.length ? only.key : null;
}

/**
 * A proceeding number written without its kind («7777-19», «7777/2019», «12345-05-20») as the number part of the
 * key it has under any kind («7777/19», «12345-05-20»), or null when the text is not exactly one such number:
 * how search matches a number however it is written.
 */
export function bareProceedingNumber(text: string): string | null {
  // Read under a kind (any kind keys its number the same way), which is then taken off again.
  const key = normalizeProceeding(`ערר ${text}`);
  return key === null ? null : key.slice('ערר '.length);
}

/**
 * The key of one citation: its (first) proceeding number's key, else the citation's normalised words, so a
 * citation the reader cannot read still has one stable key (one that resolves to no document).
 */
export function citationKey(citation: string): string {
  return findProceedings(citation)[0]?.key ?? normalizeHebrew(citation);
}

export const MAX_PROCEEDINGS = 20;

export interface SplitProceedings {
  /** The keys, in order, each once. */
  keys: string[];
  /** Pieces of the input that are no proceeding number. */
  unread: string[];
}

const BARE = new RegExp(
  `^(?:ו\\s?${DASH}?\\s?)?(\\d{1,6}\\s?(?:\\/|${DASH})\\s?\\d{2,4}(?:\\s?${DASH}\\s?\\d{2,4})?)$`,
);

/**
 * Proceeding numbers pasted in one string («עע"מ 9001/19, בג"ץ 1234/20; ע"א 5/20 ו-6/20»), split on commas,
 * semicolons, new lines and «ו-»: a bare number takes the kind of the one before it. Keys come back once each,
 * in order; the caller bounds how many it takes (MAX_PROCEEDINGS).
 */
export function splitProceedings(text: string): SplitProceedings {
  const keys: string[] = [];
  const unread: string[] = [];
  let lastKind: string | null = null;
  const add = (key: string) => {
    if (!keys.includes(key)) keys.push(key);
  };
  for (const raw of text.split(/[,;\n\u060C]+|\s+(?=ו\s?-?\s?\d)/)) {
    const piece = raw.trim();
    if (piece === '') continue;
    const found = findProceedings(piece);
    if (found.length > 0) {
      for (const f of found) add(f.key);
      lastKind = found[found.length - 1]?.kind ?? lastKind;
      continue;
    }
    const bare = BARE.exec(piece);
    const key = bare !== null && lastKind !== null ? normalizeProceeding(`${lastKind} ${bare[1]}`) : null;
    if (key !== null) add(key);
    else unread.push(piece);
  }
  return { keys, unread };
}
