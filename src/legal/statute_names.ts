// Statute names as keys: one canonical spelling per statute, and the names written without a year.
// - spelling: «חוק התכנון ובניה», «חוק התיכנון והבנייה», «[נוסח משולב]» / «[נוסח חדש]» are one name;
// - the Planning and Building Law is always 1965, whatever year a misprint gives it (תשכ"ה-1964);
// - a name without a year («פקודת העיריות», «חוק המקרקעין», «פקודת הקרקעות (רכישה לצרכי ציבור)») is read to
//   the end of its first definite word (and a «ו…» word joined to it, a parenthesised subtitle, a «[נוסח …]»):
//   «חוק X» is a statute, never the prose that follows it.
import { canonicalName } from './text.ts';

/** The word a statute is named with: law, ordinance, regulations, order. */
export type StatuteWord = 'חוק' | 'פקודה' | 'תקנות' | 'צו';

export const PLANNING_LAW = { name: 'חוק התכנון והבניה', year: 1965, key: 'חוק התכנון והבניה 1965' };

export const statuteWordOf = (written: string): StatuteWord =>
  written.startsWith('פקוד')
    ? 'פקודה'
    : written.startsWith('תקנ')
      ? 'תקנות'
      : written === 'צו'
        ? 'צו'
        : 'חוק';

// The Planning and Building Law's spellings: התכנון/התיכנון, והבניה/ובניה/והבנייה (ו/י doubling is canonical).
const PLANNING_NAME = /^(חוק|תקנות|צו) התי?כנון ו?ה?בני?ה(?= |$)/;

// Official names that documents often write slightly off: the written form, the official one.
const OFFICIAL: [RegExp, string][] = [
  [/^פקודת הקרקעות \(רכישה לצרכי ה?ציבור\)/, 'פקודת הקרקעות (רכישה לצרכי ציבור)'],
  [
    /^תקנות התכנון והבניה \(חישוב שטחים ואחוזי בני?ה בתכניות (?:עם |וב|ב)היתרים\)/,
    'תקנות התכנון והבניה (חישוב שטחים ואחוזי בניה בתכניות ובהיתרים)',
  ],
];

/** A statute's canonical name from its written form: one spelling, version notes dropped. */
export function statuteName(written: string): string {
  let name = canonicalName(written.replace(/\s*\[\s*נוסח\s+(?:חדש|משולב)\s*\]/g, ''))
    .replace(PLANNING_NAME, '$1 התכנון והבניה')
    .replace(/\s*,$/, '');
  for (const [re, official] of OFFICIAL) name = name.replace(re, official);
  return name;
}

/** The year a statute is keyed with: the Planning and Building Law's is 1965 whatever is written. */
export const statuteYear = (name: string, year: number | null): number | null =>
  name === PLANNING_LAW.name ? PLANNING_LAW.year : year;

export const statuteKey = (name: string, year: number | null) => (year === null ? name : `${name} ${year}`);

/** Glued one-letter prefixes (לחוק, ולתקנות, בסעיף) stay out of a match. */
export const GLUED = '(?<=(?:^|[^א-ת])(?:ו|ו?[בהלמשכ])?)';

// A bare name: undefined words up to the first definite one (חוק בתי המשפט), a joined «ו…» word (התכנון
// והבניה), a «ל…» town after העזר (חוק העזר לחיפה), a parenthesised subtitle and a version note.
const BARE = new RegExp(
  `(?<=(?:^|[^א-ת])(?:ו|ו?[בלמש])?)(חוק|פקודת|תקנות)\\s+((?:(?![הו])[א-ת]{2,}\\s+){0,2}ה[א-ת]{2,}` +
    `(?:\\s+וה[א-ת]{2,})?(?:\\s+ל[א-ת]{2,})?(?:\\s*\\([^()]{2,80}\\))?(?:\\s*\\[\\s*נוסח\\s+(?:חדש|משולב)\\s*\\])?)`,
  'g',
);
// Words that make «חוק …» prose, not a name: «חוק זה», «החוק הוא», «פקודת הריסה» is no statute either.
const NOT_A_NAME = new Set(
  'זה זו זאת הזה הזו הזאת הנ"ל האמור האמורה הראשי הישן החדש המקורי הוא היא הם הן הקיים הכללי הרלוונטי המתאים הספציפי המדינה'.split(
    ' ',
  ),
);

// The Basic Laws, named «חוק יסוד: …» (with a colon, a dash or neither).
const BASIC = new RegExp(
  `(?<=(?:^|[^א-ת])(?:ו|ו?[בלמש])?)חוק[\\s${'\\-\u2013\u05BE'}]*יסוד\\s*:?\\s*(כבוד האדם וחירותו|חופש העיסוק|מקרקעי ישראל|הממשלה|הכנסת|השפיטה|משק המדינה)`,
  'g',
);

export interface FoundBareStatute {
  word: StatuteWord;
  name: string;
  start: number;
  end: number;
  text: string;
}

/** Statutes named without a year, as canonical names, with offsets. */
export function findBareStatutes(text: string): FoundBareStatute[] {
  const out: FoundBareStatute[] = [];
  BARE.lastIndex = 0;
  for (let m = BARE.exec(text); m !== null; m = BARE.exec(text)) {
    const rest = m[2] ?? '';
    if (rest.split(/\s+/).some((w) => NOT_A_NAME.has(w))) continue;
    // «חוק העזר» alone is no name; a town or subtitle must follow.
    if (/^העזר$/.test(rest.trim())) continue;
    const written = m[1] ?? '';
    out.push({
      word: statuteWordOf(written),
      name: statuteName(`${written} ${rest}`),
      start: m.index,
      end: m.index + m[0].length,
      text: m[0],
    });
  }
  BASIC.lastIndex = 0;
  for (let m = BASIC.exec(text); m !== null; m = BASIC.exec(text)) {
    const name = `חוק יסוד: ${m[1]}`;
    out.push({ word: 'חוק', name, start: m.index, end: m.index + m[0].length, text: m[0] });
  }
  return out.sort((a, b) => a.start - b.start);
}
