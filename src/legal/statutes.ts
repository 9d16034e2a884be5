// Statutes, regulations and their sections as documents cite them:
// - «חוק התכנון והבנייה, התשכ"ה-1965» (name, Hebrew-calendar year, Gregorian year; either year alone too),
//   «פקודת …», «תקנות התכנון והבנייה (בקשה להיתר, תנאיו ואגרות), התשל"ל-1970»; a statute named before with
//   its year (or the Planning and Building Law) is also found by its name alone;
// - sections: «סעיף 197», «ס' 152(א)(2)», «סעיפים 196א ו-197», «סעיף 4(1) לתוספת השלישית», «תקנה 2(19)», with
//   what follows them («לחוק», «לתוספת השלישית», «לתקנות …») so the caller can tell which statute they are of;
// - a schedule by itself: «התוספת השלישית».
// Keys: a statute's canonical name and year («חוק התכנון והבניה 1965»). Garbage is nothing, never an exception.
import { hebrewNumeral } from './dates.ts';
import {
  GLUED,
  PLANNING_LAW,
  type StatuteWord,
  statuteKey,
  statuteName,
  statuteWordOf,
  statuteYear,
} from './statute_names.ts';
import { canonicalName, DASH, Q } from './text.ts';

export { PLANNING_LAW, statuteKey };

export type StatuteKind = 'statute' | 'regulation';

export interface FoundStatute {
  kind: StatuteKind;
  /** Law, ordinance, regulations or order: what a bare «לחוק» / «לפקודה» / «לתקנות» points back to. */
  word: StatuteWord;
  key: string;
  /** The canonical name without the year («חוק התכנון והבניה»). */
  name: string;
  year: number | null;
  start: number;
  end: number;
  text: string;
}

const HEB_YEAR = `ה?ת[א-ת]{0,2}${Q}{1,2}[א-ת]`;
// A name's characters, never running into the next statute's word (חוק X ובהתאם לחוק Y, התשכ"ה-1965 is Y's year).
const NAME = `(?:(?![ולבהמש]{0,2}(?:חוק|תקנות|פקודת|צו)\\s)(?:[^,;:.()\\d]|\\([^)]{1,100}\\)))`;

// The year: Hebrew-calendar (with the Gregorian after a dash, or alone), or Gregorian alone after a comma, a
// dash or a closing parenthesis (a bare number after prose is not a year).
const STATUTE = new RegExp(
  `${GLUED}(חוק|פקודת|תקנות|צו)\\s+(${NAME}{2,140}?)\\s*(?:,?\\s*(${HEB_YEAR})(?:\\s*${DASH}\\s*(\\d{4}))?|(?:,|(?<=\\))|\\s${DASH})\\s*(1[89]\\d\\d|20\\d\\d))(?![\\d])`,
  'g',
);

/** The Gregorian year of a Hebrew-calendar year as statutes give it (התשכ"ה → 1965), or null. */
export function gregorianYearOf(hebrewYear: string): number | null {
  const n = hebrewNumeral(hebrewYear.replace(/^ה(?=ת)/, ''));
  if (n === null || n < 600 || n > 900) return null;
  return 5000 + n - 3760;
}

/** Every statute, ordinance and regulation cited with its year, in order, with offsets. */
export function findStatutes(text: string): FoundStatute[] {
  const out: FoundStatute[] = [];
  STATUTE.lastIndex = 0;
  for (let m = STATUTE.exec(text); m !== null; m = STATUTE.exec(text)) {
    const written = m[1] ?? '';
    const word = statuteWordOf(written);
    const name = statuteName(`${written} ${m[2] ?? ''}`);
    const gregorian = m[4] ?? m[5];
    const year = statuteYear(name, gregorian !== undefined ? Number(gregorian) : gregorianYearOf(m[3] ?? ''));
    if (year === null || name.split(' ').length < 2) continue;
    out.push({
      kind: word === 'תקנות' || word === 'צו' ? 'regulation' : 'statute',
      word,
      key: statuteKey(name, year),
      name,
      year,
      start: m.index,
      end: m.index + m[0].length,
      text: m[0],
    });
  }
  return out;
}

const nameRegexes = new Map<string, RegExp>();

/** A regex that finds a canonical name as written: doubled ו/י, any spacing, optional quote marks. */
function nameRegex(name: string): RegExp {
  const cached = nameRegexes.get(name);
  if (cached !== undefined) {
    cached.lastIndex = 0;
    return cached;
  }
  // A cache bounded by the statutes documents name (a few dozen); a runaway document cannot grow it far.
  if (nameRegexes.size > 1000) nameRegexes.clear();
  const body = [...name]
    .map((c) => {
      if (c === ' ') return '\\s+';
      if (c === 'י' || c === 'ו') return `${c}{1,2}${Q}?`;
      if (/[א-ת]/.test(c)) return `${c}${Q}?`;
      return c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
    })
    .join('');
  const re = new RegExp(`${GLUED}${body}(?![א-ת])`, 'g');
  nameRegexes.set(name, re);
  return re;
}

/**
 * A statute cited by name alone («חוק התכנון והבנייה» without its year), for names the caller knows (named
 * with a year earlier, or the Planning and Building Law): key → where.
 */
export function findNamedStatutes(
  text: string,
  known: readonly Pick<FoundStatute, 'kind' | 'word' | 'key' | 'name' | 'year'>[],
): FoundStatute[] {
  const out: FoundStatute[] = [];
  for (const k of known) {
    const re = nameRegex(k.name);
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      out.push({ ...k, start: m.index, end: m.index + m[0].length, text: m[0] });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

export interface FoundSectionPath {
  /** The section path without spaces: "197", "152(א)(2)", "196א". */
  path: string;
  start: number;
  end: number;
  text: string;
}

export interface FoundSection {
  /** סעיף (of a law or schedule) or תקנה (of regulations). */
  of: 'law' | 'regulations';
  paths: FoundSectionPath[];
  start: number;
  end: number;
  text: string;
  /** A schedule named right after («לתוספת השלישית»): its canonical name. */
  schedule: string | null;
  /** «לתוספת» right after with no ordinal: a schedule the document's context names. */
  bareSchedule: boolean;
  /**
   * The statute word that follows the section (and its schedule): «לחוק …» / «לפקודת …» (law), «לתקנות …»
   * (regulations), or nothing. `after` is where that word starts: a statute matched there is the one meant;
   * otherwise the word is bare («לחוק» alone) and means the statute of that kind named last.
   */
  follows: 'law' | 'regulations' | null;
  /** The statute word that follows (law, ordinance, regulations, order), or null. */
  followsWord: StatuteWord | null;
  /** A provision of something else: a plan («לתקנון התכנית», «לתמ"א 38»), a contract, a decision, a pleading. */
  ofOther: boolean;
  after: number;
}

// A path: number, a letter, parenthesised sub-paths; a letter written apart with a geresh («198 י'») is one.
const SECTION_PATH = `\\d{1,4}[א-ת]?(?:\\s?\\([א-ת\\d]{1,3}\\))*(?:\\s[א-ת]${Q}(?![א-ת]))?`;
/** בסעיף, מתקנה, וס', סע' — but a glued מ never before ס' (מס' is the abbreviation of "number"). */
const SECTION_WORD = `(?:${GLUED}(?:סעיפים|סעיף|תקנות|תקנה)|(?<=(?:^|[^א-ת])(?:ו|ו?[בלשה])?)סע?${Q})`;
// A dotted number (4.4, 10.8) is a plan's or a contract's clause, never a statute's section.
const PATH_END = `(?![\\d/]|\\.\\d)`;
const SECTION = new RegExp(
  `(${SECTION_WORD})\\s*(?:קטן\\s*)?(${SECTION_PATH})((?:\\s*(?:,|ו${DASH}?|או|עד)\\s*(?:סעיף\\s*)?${SECTION_PATH}${PATH_END})*)${PATH_END}`,
  'g',
);
const PATH_IN_LIST = new RegExp(SECTION_PATH, 'g');
const SCHEDULE_NAME = 'ה(?:ראשונה|שניי?ה|שלישית|רביעית|חמישית|שישית|שביעית)';
const SCHEDULE = `התוספת\\s+(${SCHEDULE_NAME})`;
// «לתוספת» is ל + התוספת with the ה dropped, as Hebrew writes it.
const SCHEDULE_AFTER = new RegExp(`^\\s*(?:ל|של\\s+ה|ב|שב)ה?תוספת\\s+(${SCHEDULE_NAME})(?![א-ת])`);
const BARE_SCHEDULE_AFTER = /^\s*(?:ל|של\s+ה|ב|שב)ה?תוספת(?![א-ת])/;
const LAW_AFTER = /^\s*(?:ל|של\s+|ב)(חוק|פקודת|פקודה|תקנות|צו|החוק|התקנות|הפקודה|הצו)(?![א-ת])/;
// What else has numbered provisions: a plan and its regulations, a contract, a decision, a pleading.
const OTHER_AFTER = new RegExp(
  `^\\s*(?:ל|של\\s+|ב|מ)(?:ה?(?:תקנון|תכנית|תוכנית|תב${Q}{1,2}ע|תמ${Q}{1,2}[אמ]|תמא|הוראות|כתב|הסכם|חוזה|החלטה|החלטת|הודעה|הודעת|ערר|עתירה|ערעור|פרוטוקול|שומה|שומת|נספח|פסק|מכתב|בקשה|חוות|הזמנה|מפרט))(?![א-ת])`,
);
const SCHEDULE_ALONE = new RegExp(`${GLUED}${SCHEDULE}(?![א-ת])`, 'g');
const scheduleName = (ordinal: string) => canonicalName(`התוספת ${ordinal}`);

const pathOf = (written: string) => written.replace(new RegExp(`\\s([א-ת])${Q}$`), '($1)').replace(/\s/g, '');

/** Every section reference in a text, with the schedule and statute words that follow it. */
export function findSections(text: string): FoundSection[] {
  const out: FoundSection[] = [];
  SECTION.lastIndex = 0;
  for (let m = SECTION.exec(text); m !== null; m = SECTION.exec(text)) {
    const word = m[1] ?? '';
    const first = m[2] ?? '';
    const firstStart = m.index + m[0].indexOf(first, word.length);
    const paths: FoundSectionPath[] = [
      {
        path: pathOf(first),
        start: m.index,
        end: firstStart + first.length,
        text: text.slice(m.index, firstStart + first.length),
      },
    ];
    const rest = m[3] ?? '';
    const restStart = firstStart + first.length;
    PATH_IN_LIST.lastIndex = 0;
    for (let p = PATH_IN_LIST.exec(rest); p !== null; p = PATH_IN_LIST.exec(rest)) {
      const start = restStart + p.index;
      paths.push({ path: pathOf(p[0]), start, end: start + p[0].length, text: p[0] });
    }
    let after = m.index + m[0].length;
    let schedule: string | null = null;
    const sched = SCHEDULE_AFTER.exec(text.slice(after, after + 60));
    if (sched !== null) {
      schedule = scheduleName(sched[1] ?? '');
      after += sched[0].length;
    }
    const bare = sched === null ? BARE_SCHEDULE_AFTER.exec(text.slice(after, after + 20)) : null;
    if (bare !== null) after += bare[0].length;
    const law = LAW_AFTER.exec(text.slice(after, after + 20));
    let follows: FoundSection['follows'] = null;
    let followsWord: StatuteWord | null = null;
    if (law !== null) {
      followsWord = statuteWordOf((law[1] ?? '').replace(/^ה(?=[חפתצ])/, ''));
      follows = followsWord === 'תקנות' || followsWord === 'צו' ? 'regulations' : 'law';
      after += law[0].length - (law[1] ?? '').length;
    }
    const ofOther = law === null && OTHER_AFTER.test(text.slice(after, after + 24));
    const of = word.startsWith('תקנ') || follows === 'regulations' ? 'regulations' : 'law';
    out.push({
      of,
      paths,
      start: m.index,
      end: m.index + m[0].length,
      text: m[0],
      schedule,
      bareSchedule: bare !== null,
      follows,
      followsWord,
      ofOther,
      after,
    });
  }
  return out;
}

/** Schedules named outside a section reference («התוספת השלישית»), with offsets. */
export function findSchedules(text: string): { name: string; start: number; end: number; text: string }[] {
  const out: { name: string; start: number; end: number; text: string }[] = [];
  SCHEDULE_ALONE.lastIndex = 0;
  for (let m = SCHEDULE_ALONE.exec(text); m !== null; m = SCHEDULE_ALONE.exec(text)) {
    out.push({ name: scheduleName(m[1] ?? ''), start: m.index, end: m.index + m[0].length, text: m[0] });
  }
  return out;
}
