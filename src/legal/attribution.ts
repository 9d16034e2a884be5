// Which statute a document names where, and which statute a section belongs to, in reading order:
// - statutes with a year; statutes named by name alone (a name given a year elsewhere, or the Planning and
//   Building Law); statutes named without any year («פקודת העיריות»), a short name of a statute named in full
//   before («פקודת הקרקעות» after «פקודת הקרקעות (רכישה לצרכי ציבור), 1943») being that statute;
// - a definition «(להלן: "החוק")» / «(להלן – הפקודה)» makes the bare word mean that statute afterwards;
// - a section followed by a statute's name is of that statute; by a bare «לחוק» / «לפקודה» / «לתקנות», of the
//   one the bare word was defined as, else the one of that word named last, else (a law) the Planning and
//   Building Law; an ordinance or order named but not read, or a bare «לפקודה» with none named, has no
//   statute (null), never the Planning and Building Law.
import {
  findBareStatutes,
  PLANNING_LAW,
  type StatuteWord,
  statuteKey,
  statuteName,
  statuteWordOf,
} from './statute_names.ts';
import {
  type FoundSection,
  type FoundStatute,
  findNamedStatutes,
  findSchedules,
  findStatutes,
} from './statutes.ts';
import { Q } from './text.ts';

export interface Placed<T> {
  page: number;
  item: T;
}

type Known = Pick<FoundStatute, 'kind' | 'word' | 'key' | 'name' | 'year'>;

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) =>
  a.start < b.end && b.start < a.end;

/** Before in document order: an earlier page, or earlier on the same page. */
const before = (a: { page: number; at: number }, b: { page: number; at: number }) =>
  a.page < b.page || (a.page === b.page && a.at < b.at);

const DEFINED = new RegExp(
  `^\\s*,?\\s*\\(\\s*(?:להלן|ולהלן)\\s*[:\\-–—]?\\s*${Q}?\\s*ה(חוק|פקודה|תקנות|צו)${Q}?\\s*\\)`,
);

export interface DocumentStatutes {
  found: Placed<FoundStatute>[];
  /** Definitions «(להלן: החוק)»: the bare word, the statute, where the definition is. */
  defined: { word: StatuteWord; key: string; page: number; at: number }[];
  lastNamed(
    kind: FoundStatute['kind'],
    page: number,
    at: number,
    word?: StatuteWord,
  ): FoundStatute | undefined;
  statuteAt(page: number, at: number): FoundStatute | undefined;
}

/** Every statute a document names, in reading order, with what the bare words are defined as. */
export function readStatutes(pages: readonly string[]): DocumentStatutes {
  const full = pages.flatMap((text, i) => findStatutes(text).map((item) => ({ page: i + 1, item })));
  const known = new Map<string, Known>();
  known.set(PLANNING_LAW.key, { ...PLANNING_LAW, kind: 'statute', word: 'חוק' });
  for (const { item } of full) known.set(item.key, item);
  const found: Placed<FoundStatute>[] = [...full];
  const free = (page: number, item: { start: number; end: number }) =>
    !found.some((s) => s.page === page && overlaps(s.item, item));
  pages.forEach((text, i) => {
    for (const item of findNamedStatutes(text, [...known.values()])) {
      if (free(i + 1, item)) found.push({ page: i + 1, item });
    }
  });
  pages.forEach((text, i) => {
    for (const bare of findBareStatutes(text)) {
      if (!free(i + 1, bare)) continue;
      const all = [...known.values()];
      const same =
        all.find((k) => k.name === bare.name) ??
        all.find((k) => k.word === bare.word && k.name.startsWith(`${bare.name} `));
      const item: FoundStatute = same
        ? { ...same, start: bare.start, end: bare.end, text: bare.text }
        : {
            kind: bare.word === 'תקנות' || bare.word === 'צו' ? 'regulation' : 'statute',
            word: bare.word,
            key: bare.name,
            name: bare.name,
            year: null,
            start: bare.start,
            end: bare.end,
            text: bare.text,
          };
      if (!same) known.set(item.key, item);
      found.push({ page: i + 1, item });
    }
  });
  found.sort((a, b) => a.page - b.page || a.item.start - b.item.start);
  const defined: DocumentStatutes['defined'] = [];
  for (const { page, item } of found) {
    const m = DEFINED.exec((pages[page - 1] ?? '').slice(item.end, item.end + 40));
    if (m !== null) defined.push({ word: statuteWordOf(m[1] ?? ''), key: item.key, page, at: item.end });
  }
  return {
    found,
    defined,
    lastNamed(kind, page, at, word) {
      let last: FoundStatute | undefined;
      for (const s of found) {
        const fits = word === undefined ? s.item.kind === kind : s.item.word === word;
        if (fits && before({ page: s.page, at: s.item.start }, { page, at })) last = s.item;
      }
      return last;
    },
    statuteAt: (page, at) => found.find((s) => s.page === page && s.item.start === at)?.item,
  };
}

// The highest section number (an upper bound) of statutes planning decisions cite beside the Planning and
// Building Law: a bare «סעיף 198 לחוק» after the Arbitration Law is not the Arbitration Law's, which has no 198.
const LAST_SECTION = new Map<string, number>(
  (
    [
      ['חוק הבוררות', 1968, 40],
      ['חוק הפרשנות', 1981, 30],
      ['חוק ההתיישנות', 1958, 30],
      ['חוק בתי משפט לעניינים מינהליים', 2000, 60],
      ['פקודת הקרקעות (רכישה לצרכי ציבור)', 1943, 30],
      ['חוק יסוד: כבוד האדם וחירותו', null, 12],
      ['חוק יסוד: חופש העיסוק', null, 12],
    ] as const
  ).map(([name, year, last]) => [statuteKey(statuteName(name), year), last]),
);

/** Whether a statute can have a section of this path (unknown statutes: yes). */
export function hasSection(key: string, path: string): boolean {
  const last = LAST_SECTION.get(key);
  const n = Number(/^\d+/.exec(path)?.[0] ?? Number.NaN);
  return last === undefined || !Number.isInteger(n) || n <= last;
}

/** The key of the statute a section belongs to, or null when it is of a statute not read or not named. */
export function ownerOf(
  section: FoundSection,
  page: number,
  kind: FoundStatute['kind'],
  statutes: DocumentStatutes,
): string | null {
  const word = section.followsWord;
  // A statute read from context (not named right after) must have the section; else the Planning and
  // Building Law, as for a section with nothing before it.
  const fits = (key: string) => section.paths.every((p) => hasSection(key, p.path));
  if (word !== null) {
    const named = statutes.statuteAt(page, section.after);
    if (named !== undefined) return named.key;
    let definedAs: string | undefined;
    for (const d of statutes.defined) {
      if (d.word === word && before(d, { page, at: section.start })) definedAs = d.key;
    }
    if (definedAs !== undefined && fits(definedAs)) return definedAs;
    const last = statutes.lastNamed(kind, page, section.start, word);
    if (last !== undefined && definedAs === undefined && fits(last.key)) return last.key;
    return word === 'חוק' ? PLANNING_LAW.key : null;
  }
  const last = statutes.lastNamed(kind, page, section.start);
  if (last !== undefined && fits(last.key)) return last.key;
  return kind === 'statute' ? PLANNING_LAW.key : null;
}

// The Third Schedule (betterment levy) has sections 1 to 21; an exemption or the levy named beside a bare
// section of that range («פטור לפי סעיף 19(ג)(1)») makes it the schedule's.
const THIRD_SCHEDULE = 'התוספת השלישית';
const THIRD_SCHEDULE_LAST = 21;
const LEVY_CUE = /(?<![א-ת])(?:ו|ו?[בלמהש])?(?:פטור|הפטור|היטל|השבחה|ההשבחה)(?![א-ת])/;

const LEVY = /היטל(?:י)?\s+(?:ה)?השבחה/;

/**
 * The schedule a section of the Planning and Building Law is of by its context, or null: for «סעיף 4 לתוספת»
 * the schedule named last before it on the page, else the Third Schedule in a document about the levy; for a
 * bare section, the Third Schedule when an exemption or the levy is named beside it.
 */
export function scheduleByContext(
  section: FoundSection,
  pages: readonly string[],
  page: number,
  owner: string | null,
): string | null {
  const text = pages[page - 1] ?? '';
  if (owner !== PLANNING_LAW.key || section.schedule !== null) return null;
  if (section.bareSchedule) {
    const named = findSchedules(text.slice(0, section.start)).at(-1)?.name;
    return named ?? (pages.some((p) => LEVY.test(p)) ? THIRD_SCHEDULE : null);
  }
  if (section.follows !== null) return null;
  const low = section.paths.every((p) => Number(/^\d+/.exec(p.path)?.[0] ?? 0) <= THIRD_SCHEDULE_LAST);
  if (!low) return null;
  const before =
    text
      .slice(Math.max(0, section.start - 60), section.start)
      .split(/[.;!?\n]/)
      .pop() ?? '';
  const after = text.slice(section.end, section.end + 30).split(/[.;!?\n]/)[0] ?? '';
  return LEVY_CUE.test(before) || LEVY_CUE.test(after) ? THIRD_SCHEDULE : null;
}
