// The facts of an appraisal, by rule: who appraised (name and role), and per sentence the facts a cue names
// with the first value of its type after the cue (before the next cue): the determining date, the value in
// the prior and the new planning state, the betterment, the levy (flagged when it is not half the
// betterment), the price per m², areas, and coefficients by name as percentages. Each fact is about the
// parcel and plan named last before it. Sentences about comparable sales, and sentences that report another
// appraiser's figures («שמאי הוועדה העריך…», «לטענת…»), are not this appraiser's facts and are skipped.

import type { AppraiserRole, FactKind, FactUnit } from '../db/schema/analysis.ts';
import type { DocumentRole } from '../db/schema/documents.ts';
import { normalizeHebrew } from '../hebrew/text.ts';
import { type AmountLabel, findAmounts } from '../legal/amounts.ts';
import { findDates } from '../legal/dates.ts';
import { findAreas, findPercents, numberOf } from '../legal/measures.ts';
import { agorotOf, findMoney } from '../legal/money.ts';
import { findParcels, parcelKeys } from '../legal/parcels.ts';
import { findPlans } from '../legal/plans.ts';
import { canonicalName, Q } from '../legal/text.ts';
import { pageBlocks, plainText } from './layout.ts';

export const APPRAISAL_ROLES: readonly DocumentRole[] = [
  'appraisal',
  'deciding_appraisal',
  'advisory_appraisal',
];

/** The roles whose figures the fact reader reads: the appraisals, and a decision's own sums. */
export const FIGURE_ROLES: readonly DocumentRole[] = [...APPRAISAL_ROLES, 'decision'];

export interface Appraiser {
  name: string | null;
  role: AppraiserRole;
}

export interface FactCandidate {
  kind: FactKind;
  /** What the fact is of, where a kind has several: a coefficient's or an area's name, a price's state. */
  name: string | null;
  /** Agorot, m², percent, or days since 1970-01-01 for a date. */
  value: number;
  unit: FactUnit;
  parcel: string | null;
  plan: string | null;
  /** "levy_not_half" on a levy that is not half the betterment found for the same subject. */
  note: string | null;
  page: number;
  start: number;
  end: number;
  text: string;
}

const UNIT: Record<FactKind, FactUnit> = {
  determining_date: 'date',
  value_prior: 'agorot',
  value_new: 'agorot',
  betterment: 'agorot',
  levy: 'agorot',
  price_per_sqm: 'agorot',
  area: 'sqm',
  coefficient: 'percent',
  injury: 'agorot',
  compensation: 'agorot',
  reasonable_reduction: 'agorot',
  claimed: 'agorot',
};

/** The unit a fact of this kind is stored in (a reduction given only as a share is in percent). */
export const unitOf = (kind: FactKind): FactUnit => UNIT[kind];

/** A word starts here (no Hebrew letter before it). */
const W = '(?<![א-ת])';
/** What turns a valuation into the prior or the new state: the plan's approval, its coming into force, the injury. */
const EVENT = '(?:ה?אישור|אישורה|כניסת|תחילת|מתן|פרסום|ה?פגיעה|ה?תכנית)';
const VALUE = '(?:ערך|ערכ|שווי|שוויי|שווים)';
const STATE_PRIOR = `מצב\\s+(?:ה?תכנוני\\s+)?ה?קודם`;
const STATE_NEW = `מצב\\s+(?:ה?תכנוני\\s+)?ה?חדש`;
const OTHER_LEVY = '(?:סלילה|ביוב|פיתוח|תיעול|ניקוז|מים|שצ"פ)';

// Each cue names the kind of the figures after it (up to the next cue). A betterment is «השבחה» named as
// itself: not the levy's («היטל ההשבחה»), not half of it («מחצית ההשבחה», «50% מההשבחה»), not a document
// («שומת ההשבחה»). The value before and after a plan is a value only where a valuation word leads to it.
const CUES: [FactKind, RegExp][] = [
  ['determining_date', /(?:ה)?(?:מועד|יום)\s+ה?קובע/g],
  [
    'value_prior',
    new RegExp(
      `${STATE_PRIOR}|${W}${VALUE}[א-ת]*(?:\\s+[^\\s\\d|:]+){0,4}?\\s+(?:ו|ש)?(?:טרם|לפני|ערב|בטרם)\\s+${EVENT}`,
      'g',
    ),
  ],
  [
    'value_new',
    new RegExp(
      `${STATE_NEW}|${W}${VALUE}[א-ת]*(?:\\s+[^\\s\\d|:]+){0,4}?\\s+(?:ו|ש)?(?:לאחר|אחרי|בעקבות)\\s+${EVENT}`,
      'g',
    ),
  ],
  ['levy', new RegExp(`${W}(?:ו|ה|ב|ש|ל)?היטלי?(?![א-ת])(?!\\s+(?:ה)?${OTHER_LEVY})(?:\\s+ה?השבחה)?`, 'g')],
  [
    'betterment',
    new RegExp(
      `${W}(?<!(?:היטלי?|מחצית|שומת|שמאי|שמאית|ערר)\\s+)(?<!(?:%|אחוז|אחוזים)\\s*)(?:[ובלמש]?ה?)השבחה(?![א-ת])`,
      'g',
    ),
  ],
  [
    'price_per_sqm',
    new RegExp(
      `${W}(?:ה)?(?:שווי|ערך|מחיר)\\s+(?:ה)?(?:ל|לכל\\s+|ל-|ל־)?מ${Q}{1,2}ר(?:\\s+(?:מבונה|בנוי|אקו(?:ו)?|קרקע|ברוטו|נטו))?`,
      'g',
    ),
  ],
  ['coefficient', /מקדם\s+(?:ה)?([א-ת]+)/g],
  [
    'compensation',
    new RegExp(`${W}(?<!(?:תביעת|תביעה\\s+ל)\\s*)(?:ו|ה|ב|ל|כ|ש)*פיצוי(?:ים|י|ם)?(?![א-ת])`, 'g'),
  ],
  [
    'injury',
    new RegExp(
      `${W}(?<!(?:לפני|לאחר|אחרי|טרם|בטרם|ערב)\\s+)(?:[ובלמש]?ה?)פגיעה(?![א-ת])|ירידת\\s+(?:ה)?ערך|(?:ה)?ירידה\\s+ב(?:ה)?ערך`,
      'g',
    ),
  ],
  [
    'reasonable_reduction',
    new RegExp(
      `${W}(?:ו|ה|ל|ב)?(?:(?:ה|הו)?פחי?ת[א-ת]*|ניכוי|לנכות|נוכה)(?:\\s+\\S+){0,5}?\\s+(?:ב|ה|מ|ל)*(?:תחום|מתחם)\\s+ה?סביר(?:ות)?|${W}(?:ב|ה|מ|ל)*(?:תחום|מתחם)\\s+ה?סביר(?:ות)?|${W}(?:ה)?הפחתה\\s+(?:\\S+\\s+){0,6}?(?:לפי\\s+)?סעיף\\s+200(?!\\d)`,
      'g',
    ),
  ],
];

/** A coefficient's own word that is not its name: «מקדם של 0.9 בגין סחירות» is named by what follows. */
const NOT_A_NAME = /^(?:של|בשיעור|בגובה|בסך|בערך|כולל|משוקלל|נוסף|אחד|זה|זהה|כללי)$/;
const NAME_AFTER = /^\s*(?:\S+\s+){0,1}?(?:בגין|עבור|בעבור|בשל|לצורך|ל-|ל־)\s*(?:ה)?([א-ת]{2,})/;

const PER_SQM = new RegExp(`^\\s*(?:ל|לכל\\s+|ל-|ל־)\\s*מ${Q}{1,2}ר`);
const SALE = /נמכר|עסקת|עסקה|עסקאות|עסקאת/;
const OTHER_APPRAISER =
  /שמאי(?:ת)?\s+(?:ה?וועדה|ה?ועדה|ה?עוררי?ם?|ה?עוררת|ה?משיב\S*|ה?תובע\S*|הצדדים)|לטענת|לשיטת|לדעת|לפי\s+(?:שומת|חוות)|הערי(?:ך|כה)\s+שמאי|(?<![א-ת])(?:ה|ו)?(?:תבעו|תבעה|נתבע|דרשו|דרשה)(?![א-ת])/;
const COMPARABLES_HEADING = /עסקאות|השוואה|נתוני שוק|סקר שוק/;
const SENTENCE_END = /[.;!?](?=\s|$)/g;
/** A line that is its own segment: a table row («cell | cell») or a bullet. */
const ROW = / \| /;
const BULLET = /^\s*[-•*–·▪]\s/;
/** A table column that holds the deciding figures; a column of another appraiser's figures is skipped. */
const DECIDING_COLUMN = /הכרעה|מכריע|קביעת(?:י|נו)|שומתי|שומתנו|סופי/;
/** A bare number in a value column of a table row: money when the row names a sum. */
const BARE_NUMBER = /(?<![\d.,/])(\d{1,3}(?:,\d{3})+|\d{4,})(?![\d,]|\.\d|\s*(?:%|מ["״׳']|דונם|\/))/g;

const DAY_MS = 86_400_000;
export const isoToDays = (iso: string) => Math.round(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);
export const daysToIso = (days: number) => new Date(days * DAY_MS).toISOString().slice(0, 10);

/** The appraiser's name and role, from the document's role and its first and last lines. */
export function findAppraiser(pages: readonly string[], role: DocumentRole | null): Appraiser {
  const first = plainText(pages[0] ?? '').text;
  const head = normalizeHebrew(first.split('\n').slice(0, 20).join(' '));
  let appraiserRole: AppraiserRole = 'other';
  if (role === 'deciding_appraisal') appraiserRole = 'deciding';
  else if (role === 'advisory_appraisal') appraiserRole = 'advisory';
  else {
    const committee = head.search(/(?:מטעמ|עבור|לבקשת|שמאי|שמאית) ה?וועדה|(?:מטעמ|עבור|לבקשת) המשיבה/);
    const appellants = head.search(/(?:מטעמ|עבור|לבקשת|שמאי|שמאית) ה?עוררימ|(?:מטעמ|עבור) ה?עורר/);
    if (committee >= 0 && (appellants < 0 || committee < appellants)) appraiserRole = 'committee';
    else if (appellants >= 0) appraiserRole = 'appellants';
  }
  return { name: appraiserName(pages), role: appraiserRole };
}

const NAME_AFTER_COLON =
  /(?:^|\n)\s*(?:ה?שמאי(?:ת)?(?:\s+ה?(?:מכריע|מכריעה|מייעץ|מייעצת|מקרקעין))?|ערך|ערכה|נערכה?\s+על\s+ידי|מאת|עורכ(?:ת)?\s+(?:חוות\s+ה?דעת|ה?שומה))\s*:\s*(?:ה?שמאי(?:ת)?\s+)?([^\n,(]{3,40})/;
const SIGNATURE = /(?:^|\n)\s*([א-ת"'׳״-]+(?:\s+[א-ת"'׳״-]+){1,2}),\s*(?:ה?שמאי|שמאית)/g;

function cleanName(text: string): string | null {
  const words = text
    .trim()
    .split(/\s+/)
    .filter((w) => !/^(?:מר|גב['׳]?|עו["״]ד|השמאי|השמאית|שמאי|שמאית)$/.test(w));
  if (words.length < 2 || words.length > 4 || !words.every((w) => /^[א-ת"'׳״-]+$/.test(w))) return null;
  return words.join(' ');
}

function appraiserName(pages: readonly string[]): string | null {
  const first = plainText(pages[0] ?? '').text;
  const named = NAME_AFTER_COLON.exec(first);
  const fromHead = named === null ? null : cleanName(named[1] ?? '');
  if (fromHead !== null) return fromHead;
  const last = plainText(pages.at(-1) ?? '').text;
  let signed: string | null = null;
  SIGNATURE.lastIndex = 0;
  for (let m = SIGNATURE.exec(last); m !== null; m = SIGNATURE.exec(last))
    signed = cleanName(m[1] ?? '') ?? signed;
  return signed;
}

interface Segment {
  page: number;
  start: number;
  end: number;
  /** Not this appraiser's facts: a sale, or another appraiser's figures. */
  skip: boolean;
  /** Under a comparables heading: its areas and prices are the comparables', not the subject's. */
  comparables: boolean;
  /** A table row: the ranges of its cells (in the page's plain text) whose figures are this appraiser's. */
  cells: { start: number; end: number }[] | null;
}

/** A row's cells with their offsets (cells are joined by « | »). */
function cellsOf(text: string, start: number, end: number): { start: number; end: number; text: string }[] {
  const out: { start: number; end: number; text: string }[] = [];
  let from = start;
  const line = text.slice(start, end);
  for (const m of line.matchAll(/ \| /g)) {
    const to = start + (m.index ?? 0);
    out.push({ start: from, end: to, text: text.slice(from, to) });
    from = to + m[0].length;
  }
  out.push({ start: from, end, text: text.slice(from, end) });
  return out;
}

/**
 * The cells of a table row whose figures count, by the last header row above it: the deciding column when
 * there is one, else every column but those of another appraiser; null when the row has no figure of ours.
 */
function ownCells(
  cells: { start: number; end: number; text: string }[],
  header: string[] | null,
): { start: number; end: number }[] | null {
  if (header === null || header.length !== cells.length) return cells;
  const deciding = header.findIndex((h, i) => i > 0 && DECIDING_COLUMN.test(h));
  if (deciding > 0) return [cells[0], cells[deciding]].filter((c) => c !== undefined);
  const kept = cells.filter((_, i) => i === 0 || !OTHER_APPRAISER.test(header[i] ?? ''));
  return kept.length > 1 ? kept : null;
}

/** The document's sentences (plain-text offsets per page), each marked when it is not this appraiser's. */
function segments(plainPages: readonly string[]): Segment[] {
  const out: Segment[] = [];
  let comparables = false;
  plainPages.forEach((text, i) => {
    let header: string[] | null = null;
    for (const block of pageBlocks(text)) {
      if (block.kind === 'heading' && !ROW.test(text.slice(block.start, block.end)))
        comparables = COMPARABLES_HEADING.test(block.norm);
      // A table row or a bullet is a segment of its own, whatever the blocks made of its lines.
      const lines: { start: number; end: number }[] = [];
      let at = block.start;
      for (const line of text.slice(block.start, block.end).split('\n')) {
        const prev = lines.at(-1);
        const own = ROW.test(line) || BULLET.test(line);
        if (prev !== undefined && !own && !ROW.test(text.slice(prev.start, prev.end)))
          prev.end = at + line.length;
        else lines.push({ start: at, end: at + line.length });
        at += line.length + 1;
      }
      for (const line of lines) {
        const body = text.slice(line.start, line.end);
        if (ROW.test(body)) {
          const cells = cellsOf(text, line.start, line.end);
          const figures = cells.some((c) => /\d/.test(c.text));
          if (!figures) {
            header = cells.map((c) => c.text);
            comparables = COMPARABLES_HEADING.test(body) || comparables;
            continue;
          }
          const kept = ownCells(cells, header);
          const skip = kept === null || SALE.test(body) || OTHER_APPRAISER.test(cells[0]?.text ?? '');
          out.push({ page: i + 1, start: line.start, end: line.end, skip, comparables, cells: kept });
          continue;
        }
        header = null;
        let from = line.start;
        const ends = [...body.matchAll(SENTENCE_END)].map((m) => line.start + (m.index ?? 0) + 1);
        for (const end of [...ends, line.end]) {
          if (end <= from) continue;
          const sentence = text.slice(from, end);
          const skip = SALE.test(sentence) || OTHER_APPRAISER.test(sentence);
          out.push({ page: i + 1, start: from, end, skip, comparables, cells: null });
          from = end;
        }
      }
    }
  });
  return out;
}

interface Money {
  agorot: number;
  start: number;
  end: number;
}

/** The kinds whose figures are sums of money (a bare number in a table row of these is a sum). */
const MONEY_KINDS = new Set<FactKind>([
  'value_prior',
  'value_new',
  'betterment',
  'levy',
  'price_per_sqm',
  'injury',
  'compensation',
  'reasonable_reduction',
]);

/** Between two sums of one list: punctuation and «ו», nothing else («1,000 ₪, 2,000 ₪ ו-3,000 ₪»). */
const LIST_GAP = /^[\s,־–-]*(?:ו|וכן)?[\s־–-]*$/;

/** The facts of one appraisal, in order. */
export function extractFacts(pages: readonly string[]): FactCandidate[] {
  const plain = pages.map((p) => plainText(p));
  const texts = plain.map((p) => p.text);
  const segs = segments(texts);
  const kept = segs.filter((s) => !s.skip);
  // What the appraisal is about: the first parcel and plan it names in its own sentences (an appraisal of
  // several plans at once would need more than rules can tell; its facts all go to the first).
  const firstOf = (find: (text: string) => { start: number; key: string }[]) => {
    for (const seg of kept) {
      const text = texts[seg.page - 1] ?? '';
      const hit = find(text).find((f) => seg.start <= f.start && f.start < seg.end);
      if (hit !== undefined) return hit.key;
    }
    return null;
  };
  const plan = firstOf((t) => findPlans(t));
  const parcel = firstOf((t) =>
    findParcels(t).map((p) => ({ start: p.start, key: parcelKeys(p).join(', ') })),
  );

  const facts: FactCandidate[] = [];
  for (const seg of kept) {
    const text = texts[seg.page - 1] ?? '';
    const sentence = text.slice(seg.start, seg.end);
    const base = seg.start;
    // In a table row only the figures of the kept cells count.
    const inCells = (from: number) =>
      seg.cells === null || seg.cells.some((c) => c.start <= base + from && base + from < c.end);
    const add = (
      kind: FactKind,
      name: string | null,
      value: number,
      from: number,
      to: number,
      unit: FactUnit = UNIT[kind],
    ) => {
      const map = plain[seg.page - 1] ?? { at: (i: number) => i };
      const start = map.at(base + from);
      const end = map.at(base + to);
      facts.push({
        kind,
        name,
        value,
        unit,
        parcel,
        plan,
        note: null,
        page: seg.page,
        start,
        end,
        text: (pages[seg.page - 1] ?? '').slice(start, end),
      });
    };
    const money: Money[] = findMoney(sentence).filter((m) => inCells(m.start));
    const perSqm = money.filter((m) => PER_SQM.test(sentence.slice(m.end, m.end + 12)));
    const state = /מצב\s+(?:ה?תכנוני\s+)?ה?חדש|(?:לאחר|אחרי)\s+(?:ה?אישור|ה?פגיעה)/.test(sentence)
      ? 'new'
      : /מצב\s+(?:ה?תכנוני\s+)?ה?קודם|(?:טרם|לפני|ערב|בטרם)\s+(?:ה?אישור|ה?פגיעה)/.test(sentence)
        ? 'prior'
        : null;
    // Under a comparables heading only a valuation sentence (שווי…, מצב חדש/קודם) speaks of the subject.
    const own = !seg.comparables || /שווי|מצב\s+(?:ה?תכנוני\s+)?ה?(?:חדש|קודם)/.test(sentence);
    if (own) {
      for (const m of perSqm) {
        const suffix = PER_SQM.exec(sentence.slice(m.end))?.[0].length ?? 0;
        add('price_per_sqm', state, m.agorot, m.start, m.end + suffix);
      }
    }
    const amounts = money.filter((m) => !perSqm.includes(m));
    let cues = CUES.flatMap(([kind, re]) =>
      [...sentence.matchAll(re)].map((m) => ({
        kind,
        start: m.index ?? 0,
        end: (m.index ?? 0) + m[0].length,
        word: m[1],
      })),
    ).sort((a, b) => a.start - b.start || b.end - a.end);
    // Overlapping cues are one: the first (and longest) wins («היטל ההשבחה» is no betterment cue).
    cues = cues.filter((c, k) => !cues.slice(0, k).some((p) => p.start < c.end && c.start < p.end));
    // A state after a price per m² with no figure between is the price's state, not a value of its own.
    cues = cues.filter((c, k) => {
      const prev = cues[k - 1];
      if (prev?.kind !== 'price_per_sqm' || (c.kind !== 'value_new' && c.kind !== 'value_prior')) return true;
      return /\d/.test(sentence.slice(prev.end, c.start));
    });
    // A row's bare numbers are sums when the row names a sum (a value column without ₪).
    if (seg.cells !== null && cues.some((c) => MONEY_KINDS.has(c.kind))) {
      for (const m of sentence.matchAll(BARE_NUMBER)) {
        const from = m.index ?? 0;
        const to = from + m[0].length;
        if (!inCells(from) || money.some((x) => x.start < to && from < x.end)) continue;
        const agorot = agorotOf(m[1] ?? '');
        if (agorot !== null) amounts.push({ agorot, start: from, end: to });
      }
      amounts.sort((a, b) => a.start - b.start);
    }
    const previousCueEnd = (k: number) => cues[k - 1]?.end ?? 0;
    cues.forEach((cue, k) => {
      const limit = cues[k + 1]?.start ?? sentence.length;
      const after = sentence.slice(cue.end, limit);
      if (cue.kind === 'determining_date') {
        // «5.7.2022 הוא המועד הקובע»: a date after the cue, else the last one before it (since the cue before).
        const date = findDates(after)[0];
        if (date !== undefined) add(cue.kind, null, isoToDays(date.iso), cue.start, cue.end + date.end);
        else {
          const from = previousCueEnd(k);
          const before = findDates(sentence.slice(from, cue.start)).at(-1);
          if (before !== undefined && inCells(from + before.start))
            add(cue.kind, null, isoToDays(before.iso), from + before.start, cue.end);
        }
      } else if (cue.kind === 'coefficient') {
        const value = coefficientAfter(after);
        if (value === null || !inCells(cue.end + value.end - 1)) return;
        let word = cue.word ?? '';
        if (NOT_A_NAME.test(word) || !/^[א-ת]{2,}$/.test(word)) {
          word = NAME_AFTER.exec(after.slice(value.end))?.[1] ?? '';
          if (word === '') return;
        }
        add(cue.kind, canonicalName(`מקדם ${word}`), value.value, cue.start, cue.end + value.end);
      } else if (cue.kind === 'reasonable_reduction') {
        // A sum after the cue, else its share; else the share the cue itself holds («להפחית 10% בגין…»).
        const sum = amounts.find((a) => a.start >= cue.end && a.end <= limit);
        if (sum !== undefined) {
          add(cue.kind, null, sum.agorot, cue.start, sum.end);
          return;
        }
        const following = findPercents(after)[0];
        const share = following ?? findPercents(sentence.slice(cue.start, cue.end))[0];
        if (share === undefined) return;
        const end = following === undefined ? cue.end : cue.end + share.end;
        add(cue.kind, 'שיעור', share.value, cue.start, end, 'percent');
      } else {
        const first = amounts.findIndex((a) => a.start >= cue.end && a.end <= limit);
        if (first < 0) return;
        // Every sum of a list after one cue is of that kind («…627,000 ₪, 41,500 ₪ ו-1,593,777 ₪»).
        let last = first;
        for (let j = first + 1; j < amounts.length; j++) {
          const next = amounts[j];
          const prev = amounts[j - 1];
          if (next === undefined || prev === undefined || next.end > limit) break;
          if (!LIST_GAP.test(sentence.slice(prev.end, next.start))) break;
          last = j;
        }
        for (let j = first; j <= last; j++) {
          const m = amounts[j];
          if (m === undefined) continue;
          const name = cue.kind === 'price_per_sqm' ? state : null;
          add(cue.kind, name, m.agorot, j === first ? cue.start : m.start, m.end);
        }
      }
    });
    if (own) {
      for (const area of findAreas(sentence)) {
        if (!inCells(area.start)) continue;
        const name = areaName(sentence.slice(Math.max(0, area.start - 40), area.start));
        add('area', name, area.value, area.start, area.end);
      }
    }
  }
  flagLevies(facts);
  return facts;
}

const DECISION_KIND: Record<AmountLabel, FactKind> = {
  levy: 'levy',
  compensation: 'compensation',
  claim: 'claimed',
};

/**
 * The sums a decision states, by the labelled-amounts rule (src/legal/amounts.ts): the levy demanded or set,
 * the compensation awarded, a sum a party claimed; a sum the rule gives no label (or leaves out: costs, other
 * levies) is not a fact. Each is about the decision's first parcel and plan, as an appraisal's facts are.
 */
export function extractDecisionFacts(pages: readonly string[]): FactCandidate[] {
  const plain = pages.map((p) => plainText(p));
  const firstKey = (keys: (text: string) => string | undefined) => {
    for (const p of plain) {
      const key = keys(p.text);
      if (key !== undefined) return key;
    }
    return null;
  };
  const plan = firstKey((t) => findPlans(t)[0]?.key);
  const parcel = firstKey((t) => {
    const first = findParcels(t)[0];
    return first === undefined ? undefined : parcelKeys(first).join(', ');
  });
  return plain.flatMap((p, i) =>
    findAmounts(p.text).flatMap((a) => {
      if (a.label === null) return [];
      const start = p.at(a.start);
      const end = p.at(a.end);
      const kind = DECISION_KIND[a.label];
      return [
        {
          kind,
          name: null,
          value: a.agorot,
          unit: UNIT[kind],
          parcel,
          plan,
          note: null,
          page: i + 1,
          start,
          end,
          text: (pages[i] ?? '').slice(start, end),
        },
      ];
    }),
  );
}

/** A coefficient written as a percentage (85%) or a fraction (0.85), as a percentage. */
function coefficientAfter(text: string): { value: number; end: number } | null {
  const percent = findPercents(text)[0];
  const fraction = /(?<![\d.,])(0?\.\d{1,4}|1(?:\.0{1,4})?)(?![\d%]|\s*%)/.exec(text);
  if (percent !== undefined && (fraction === null || percent.start <= fraction.index))
    return { value: percent.value, end: percent.end };
  if (fraction === null) return null;
  const n = numberOf(fraction[1]?.startsWith('.') ? `0${fraction[1]}` : (fraction[1] ?? ''));
  return n === null
    ? null
    : { value: Math.round(n * 100 * 1e4) / 1e4, end: fraction.index + fraction[0].length };
}

const AREA_NAMES: [RegExp, string][] = [
  [/מגרש/g, 'מגרש'],
  [/עיקרי/g, 'שטח עיקרי'],
  [/שירות/g, 'שטחי שירות'],
  [/הרחב|תוספת|נוספ/g, 'תוספת'],
];

/** An area's name from the words just before it: the nearest of them wins («שטח עיקרי 120 ושירות 30»). */
function areaName(before: string): string {
  let best = { at: -1, name: 'שטח' };
  for (const [re, name] of AREA_NAMES) {
    for (const m of before.matchAll(re)) if ((m.index ?? -1) > best.at) best = { at: m.index ?? -1, name };
  }
  return best.name;
}

/** Marks a levy that is not half the betterment of the same subject (beyond a shekel of rounding). */
function flagLevies(facts: FactCandidate[]): void {
  for (const levy of facts.filter((f) => f.kind === 'levy')) {
    const betterment = facts.find(
      (f) => f.kind === 'betterment' && f.parcel === levy.parcel && f.plan === levy.plan,
    );
    if (betterment !== undefined && Math.abs(levy.value * 2 - betterment.value) > 200)
      levy.note = 'levy_not_half';
  }
}
