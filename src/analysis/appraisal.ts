// The facts of an appraisal, by rule: who appraised (name and role), and per segment (a sentence, a bullet,
// a table row) the facts its cues name (./appraisal_cues.ts) with the values of their type after each cue,
// up to the next: the determining date (or the date just before its cue), the value before and after the plan,
// the betterment named as itself (never the levy's or half of it), the levy (flagged when it is not half the
// betterment), the price per m², areas, coefficients by name as percentages (named by what follows «מקדם של»),
// and for compensation cases the injury, the compensation and the reduction for the reasonable range. Every
// sum of a list after one cue is read; a table row's value column needs no ₪. Each fact is about the first
// parcel and plan the appraisal names. Sales, other appraisers' figures, claimed sums, and a table's other
// appraisers' columns are not this appraiser's facts (./appraisal_segments.ts).
import type { AppraiserRole, FactKind, FactUnit } from '../db/schema/analysis.ts';
import type { DocumentRole } from '../db/schema/documents.ts';
import { normalizeHebrew } from '../hebrew/text.ts';
import { findDates } from '../legal/dates.ts';
import { findAreas, findPercents, numberOf } from '../legal/measures.ts';
import { agorotOf, findMoney } from '../legal/money.ts';
import { findParcels, parcelKeys } from '../legal/parcels.ts';
import { findPlans } from '../legal/plans.ts';
import { canonicalName } from '../legal/text.ts';
import {
  BARE_NUMBER,
  CUES,
  LIST_GAP,
  MONEY_KINDS,
  NAME_AFTER,
  NOT_A_NAME,
  PER_SQM,
  UNIT,
} from './appraisal_cues.ts';
import { segments } from './appraisal_segments.ts';
import { plainText } from './layout.ts';

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

interface Money {
  agorot: number;
  start: number;
  end: number;
}

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
