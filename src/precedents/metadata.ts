// The metadata of a ruling or a committee decision, by rule, from its heading and its closing lines: the
// court or committee, the proceeding and its number, the date it was given, the judges or members, the
// parties and the outcome, and the practice area from what it is about. Each field comes with where it was
// read (page, offsets, text). Garbage yields empty fields, never an exception.

import type { MetadataField, Outcome, PracticeArea } from '../db/schema/vocabulary.ts';
import { findDates } from '../legal/dates.ts';
import { readOutcome } from '../legal/outcomes.ts';
import { findProceedings } from '../legal/proceedings.ts';
import { Q } from '../legal/text.ts';

export interface Span {
  page: number;
  start: number;
  end: number;
  text: string;
}

export interface ExtractedField<T> {
  value: T;
  at: Span;
}

export interface ExtractedMetadata {
  court?: ExtractedField<string>;
  proceeding?: ExtractedField<string>;
  number?: ExtractedField<string>;
  decision_date?: ExtractedField<string>;
  judges?: ExtractedField<string[]>;
  parties?: ExtractedField<string>;
  outcome?: ExtractedField<Outcome>;
  prior_outcome?: ExtractedField<Outcome>;
  practice_area?: ExtractedField<PracticeArea>;
}

interface Line {
  text: string;
  start: number;
  end: number;
}

/** The lines of a page with their offsets (trimmed; empty ones dropped). */
function linesOf(page: string): Line[] {
  const out: Line[] = [];
  let at = 0;
  for (const raw of page.split('\n')) {
    const lead = raw.length - raw.trimStart().length;
    const text = raw.trim();
    if (text !== '') out.push({ text, start: at + lead, end: at + lead + text.length });
    at += raw.length + 1;
  }
  return out;
}

/** The heading: the lines up to the title «פסק דין» / «החלטה» (numbered parties come before it), at most 25. */
const HEADING_LINES = 25;
const TITLE = /^(?:פסק[\s-]+(?:ה)?דין|החלטה|החלטה\s+ופסק\s+דין)\s*:?$/;
const heading = (page: string) => {
  const lines = linesOf(page);
  const title = lines.findIndex((l) => TITLE.test(l.text));
  return lines.slice(0, title === -1 ? HEADING_LINES : Math.min(title, HEADING_LINES));
};

/** Quote marks as one form: geresh ׳ ’ as ', gershayim ״ ” as ". */
const asciiQuotes = (s: string) =>
  s.replace(/[\u05F3\u2019\u2018`´]/g, "'").replace(/[\u05F4\u201C\u201D]/g, '"');

const tidy = (s: string) =>
  asciiQuotes(s)
    .replace(/\s+[—–-]\s+/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/[\s,.;:]+$/, '')
    .trim();

const COURT = /^(?:ב(?=בית|ועדת))?((?:בית\s+(?:ה)?משפט|ועדת\s+(?:ה)?ערר)\s.*)$/;

const TITLES = new RegExp(
  `^(?:כב${Q}|כבוד|השופט(?:ת)?|הנשיא(?:ה)?|המשנה\\s+לנשיא(?:ה)?|סגנ(?:ית)?\\s+הנשיא(?:ה)?|עו${Q}{1,2}ד|אדר${Q}|גב${Q}|מר|ד${Q}{1,2}ר|פרופ${Q}|רו${Q}{1,2}ח|שמאי(?:ת)?|מהנדס(?:ת)?|יו${Q}{1,2}ר(?:\\s+הוועדה)?|חבר(?:ת)?\\s+הוועדה)\\s+`,
);
const JUDGES_LINE = new RegExp(
  `^(?:לפני|בפני|השופטים|הרכב|יו${Q}{1,2}ר\\s+הוועדה|חברי\\s+הוועדה)\\s*:?\\s*(.*)$`,
);

/** A name with its titles (כב' השופטת, עו"ד…) and a trailing role («, יו"ר») left out. */
function bareName(text: string): string {
  let name = text.trim().replace(/^\d+\.\s*/, '');
  for (let prev = ''; prev !== name; ) {
    prev = name;
    name = name.replace(TITLES, '');
  }
  return tidy(name);
}

function judgesOf(lines: readonly Line[], page: number): ExtractedField<string[]> | undefined {
  const names: string[] = [];
  let first: Line | undefined;
  let last: Line | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as Line;
    const m = JUDGES_LINE.exec(line.text);
    if (m === null) continue;
    first ??= line;
    last = line;
    const rest = m[1] ?? '';
    if (rest !== '') names.push(...rest.split(/\s*[,;]\s*|\s+ו(?=כב|השופט)/).map(bareName));
    else {
      // «לפני:» alone: the judges follow, one a line, each with a title.
      for (let j = i + 1; j < lines.length && TITLES.test((lines[j] as Line).text); j++) {
        names.push(bareName((lines[j] as Line).text));
        last = lines[j];
      }
    }
  }
  const clean = [...new Set(names.filter((n) => n !== '' && n.length <= 60))];
  if (first === undefined || last === undefined || clean.length === 0) return undefined;
  return { value: clean, at: { page, start: first.start, end: last.end, text: '' } };
}

const FIRST_SIDE =
  /^(?:העוררים|העוררות|העוררת|העורר|המערערים|המערערות|המערערת|המערער|העותרים|העותרות|העותרת|העותר|המבקשים|המבקשת|המבקש|התובעים|התובעת|התובע)\s*:\s*(.*)$/;
const SECOND_SIDE = /^(?:המשיבים|המשיבות|המשיבה|המשיב|הנתבעים|הנתבעת|הנתבע)\s*:\s*(.*)$/;
const VERSUS = new RegExp(`\\s+(?:נ${Q}|נגד)\\s+`);

/** One side of the parties: its first name (address after a comma left out), «ואח'» when more follow. */
function side(lines: readonly Line[], i: number, first: string): { name: string; next: number } {
  let name = tidy(first.replace(/^\d+\.\s*/, '').split(',')[0] ?? '');
  let next = i + 1;
  let more = false;
  while (next < lines.length && /^\d+\.\s/.test((lines[next] as Line).text)) {
    more = true;
    next++;
  }
  if (more && !name.endsWith("ואח'")) name = `${name} ואח'`;
  return { name, next };
}

function partiesOf(
  lines: readonly Line[],
  page: number,
  numberLine: Line | undefined,
  numberEnd: number,
): ExtractedField<string> | undefined {
  for (let i = 0; i < lines.length; i++) {
    const m = FIRST_SIDE.exec((lines[i] as Line).text);
    if (m === null) continue;
    const a = side(lines, i, m[1] ?? '');
    for (let j = a.next; j < Math.min(lines.length, a.next + 3); j++) {
      const s = SECOND_SIDE.exec((lines[j] as Line).text);
      if (s === null) continue;
      const b = side(lines, j, s[1] ?? '');
      const end = (lines[b.next - 1] as Line).end;
      const start = (lines[i] as Line).start;
      return { value: `${a.name} נ' ${b.name}`, at: { page, start, end, text: '' } };
    }
  }
  // «עע"מ 9001/19 X נ' Y» on the number's line.
  if (numberLine !== undefined) {
    const rest = numberLine.text.slice(numberEnd - numberLine.start);
    const parts = rest.split(VERSUS);
    if (parts.length === 2 && (parts[0] ?? '').trim() !== '') {
      const start = numberEnd + (rest.length - rest.trimStart().length);
      return {
        value: `${tidy(parts[0] ?? '')} נ' ${tidy(parts[1] ?? '')}`,
        at: { page, start, end: numberLine.end, text: '' },
      };
    }
  }
  return undefined;
}

/**
 * The decision's own outcome (`own`), or that of the decision under review it recites (`prior`), read over
 * all its pages (its closing part is on the last), at its page.
 */
function outcomeOf(pages: readonly string[], which: 'own' | 'prior'): ExtractedField<Outcome> | undefined {
  const own = readOutcome(pages.join('\n'))[which];
  if (own === null) return undefined;
  let page = 0;
  let from = 0;
  while (page < pages.length - 1 && own.span.start >= from + (pages[page] ?? '').length + 1) {
    from += (pages[page] ?? '').length + 1;
    page++;
  }
  const start = own.span.start - from;
  return {
    value: own.value,
    at: { page: page + 1, start, end: start + own.span.text.length, text: own.span.text },
  };
}

const GIVEN = /(?:^|\s)(?:ניתנה|ניתן|ניתנו|ניתנת)(?:\s|$)/;

/** The date it was given: from the «ניתן/ניתנה היום …» line (the last one), else a «תאריך:» in the heading. */
function dateOf(pages: readonly string[], head: readonly Line[]): ExtractedField<string> | undefined {
  for (let p = pages.length - 1; p >= 0; p--) {
    const lines = linesOf(pages[p] ?? '');
    for (let i = lines.length - 1; i >= 0; i--) {
      const line = lines[i] as Line;
      if (!GIVEN.test(line.text)) continue;
      const dates = findDates(line.text);
      // A Gregorian date in the line wins over the Hebrew one beside it (they should agree).
      const date = dates.find((d) => /\d/.test(d.text)) ?? dates[0];
      if (date === undefined) continue;
      const start = line.start + date.start;
      return { value: date.iso, at: { page: p + 1, start, end: start + date.text.length, text: date.text } };
    }
  }
  for (const line of head) {
    if (!/^תאריך/.test(line.text)) continue;
    const date = findDates(line.text)[0];
    if (date === undefined) continue;
    const start = line.start + date.start;
    return { value: date.iso, at: { page: 1, start, end: start + date.text.length, text: date.text } };
  }
  return undefined;
}

const AREAS: [PracticeArea, RegExp, number][] = [
  ['betterment_levy', /היטל(?:י)?\s+(?:ה)?השבחה|ההשבחה|שומה\s+מכרעת/g, 3],
  ['compensation', /פיצוי|סעיף\s+197|ירידת\s+ערך|פגיעה\s+סבירה/g, 3],
  ['permits', /היתר|הקלה|שימוש\s+חורג|קו(?:י)?\s+(?:ה)?בניין/g, 2],
  ['planning', /תכנית|תוכנית|ייעוד|תסקיר|שטח\s+(?:ציבורי\s+)?פתוח|התנגדו/g, 1],
];

/** The practice area: the one whose vocabulary weighs most in the text (ties: the order above). */
function practiceAreaOf(pages: readonly string[]): ExtractedField<PracticeArea> | undefined {
  let best: { area: PracticeArea; score: number; at: Span } | undefined;
  for (const [area, re, weight] of AREAS) {
    let score = 0;
    let at: Span | undefined;
    pages.forEach((text, i) => {
      re.lastIndex = 0;
      for (let m = re.exec(text); m !== null; m = re.exec(text)) {
        score += weight;
        at ??= { page: i + 1, start: m.index, end: m.index + m[0].length, text: m[0] };
      }
    });
    if (at !== undefined && (best === undefined || score > best.score)) best = { area, score, at };
  }
  return best === undefined ? undefined : { value: best.area, at: best.at };
}

/**
 * Only a number that opens its heading line (after numbering or a file label: «תיק מס'», «מספר תיק:») is the
 * document's own; one inside a sentence («כפי שנקבע בעע"מ…», «(ע"א …)») is a ruling it cites.
 */
const LINE_LABEL = new RegExp(
  `^[\\s\\d.:\\-–—]*(?:(?:מספר\\s+)?(?:ב)?תיק(?:\\s+מס(?:${Q}|פר))?\\s*:?\\s*)?$`,
);
const opensLine = (text: string, start: number) => LINE_LABEL.test(text.slice(0, start));

/** The metadata a ruling's or decision's pages state, each field with where it was read. */
export function extractMetadata(pages: readonly string[]): ExtractedMetadata {
  const out: ExtractedMetadata = {};
  const first = pages[0] ?? '';
  const head = heading(first);
  const withText = <T>(f: ExtractedField<T> | undefined, page: string): ExtractedField<T> | undefined =>
    f === undefined ? undefined : { ...f, at: { ...f.at, text: page.slice(f.at.start, f.at.end) } };

  const courtLine = head.find((l) => COURT.test(l.text));
  if (courtLine !== undefined) {
    const value = tidy(COURT.exec(courtLine.text)?.[1] ?? '');
    out.court = { value, at: { page: 1, start: courtLine.start, end: courtLine.end, text: courtLine.text } };
  }
  let numberLine: Line | undefined;
  let numberEnd = 0;
  for (const line of head) {
    const found = findProceedings(line.text)[0];
    if (found === undefined || !opensLine(line.text, found.start)) continue;
    numberLine = line;
    numberEnd = line.start + found.end;
    const at = { page: 1, start: line.start + found.start, end: numberEnd, text: found.text };
    out.number = { value: found.key, at };
    out.proceeding = { value: found.kind, at };
    break;
  }
  out.judges = withText(judgesOf(head, 1), first);
  out.parties = withText(partiesOf(head, 1, numberLine, numberEnd), first);
  out.decision_date = dateOf(pages, head);
  out.outcome = outcomeOf(pages, 'own');
  out.prior_outcome = outcomeOf(pages, 'prior');
  out.practice_area = practiceAreaOf(pages);
  for (const k of Object.keys(out) as MetadataField[]) if (out[k] === undefined) delete out[k];
  return out;
}
