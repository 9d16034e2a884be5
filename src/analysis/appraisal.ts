// The facts of an appraisal, by rule: who appraised (name and role), and per sentence the facts a cue names
// with the first value of its type after the cue (before the next cue): the determining date, the value in
// the prior and the new planning state, the betterment, the levy (flagged when it is not half the
// betterment), the price per m², areas, and coefficients by name as percentages. Each fact is about the
// parcel and plan named last before it. Sentences about comparable sales, and sentences that report another
// appraiser's figures («שמאי הוועדה העריך…», «לטענת…»), are not this appraiser's facts and are skipped.

import type { AppraiserRole, FactKind, FactUnit } from '../db/schema/analysis.ts';
import type { DocumentRole } from '../db/schema/documents.ts';
import { normalizeHebrew } from '../hebrew/text.ts';
import { findDates } from '../legal/dates.ts';
import { findAreas, findPercents, numberOf } from '../legal/measures.ts';
import { findMoney } from '../legal/money.ts';
import { findParcels, parcelKeys } from '../legal/parcels.ts';
import { findPlans } from '../legal/plans.ts';
import { canonicalName, Q } from '../legal/text.ts';
import { pageBlocks, plainText } from './layout.ts';

export const APPRAISAL_ROLES: readonly DocumentRole[] = [
  'appraisal',
  'deciding_appraisal',
  'advisory_appraisal',
];

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
};

const CUES: [FactKind, RegExp][] = [
  ['determining_date', /(?:ה)?מועד\s+ה?קובע/g],
  ['value_prior', /מצב\s+(?:ה?תכנוני\s+)?ה?קודם/g],
  ['value_new', /מצב\s+(?:ה?תכנוני\s+)?ה?חדש/g],
  ['levy', /היטל(?:\s+ה?השבחה)?/g],
  [
    'betterment',
    /(?:(?:שווי|סכום|שיעור|גובה|סך|תחשיב)\s+ה?השבחה|(?<!היטל\s+)ה?השבחה\s+(?:היא|הינה|נקבעה|עומדת|מסתכמת|בסך|בשיעור|בגובה|נאמדת|מוערכת))/g,
  ],
  ['coefficient', /מקדם\s+(?:ה)?([א-ת]+)/g],
];

const PER_SQM = new RegExp(`^\\s*(?:ל|לכל\\s+|ל-|ל־)\\s*מ${Q}{1,2}ר`);
const SALE = /נמכר|עסקת|עסקה|עסקאות|עסקאת/;
const OTHER_APPRAISER =
  /שמאי(?:ת)?\s+(?:ה?וועדה|ה?ועדה|ה?עוררי?ם?|ה?עוררת|ה?משיב\S*|הצדדים)|לטענת|לשיטת|לדעת|לפי\s+(?:שומת|חוות)|הערי(?:ך|כה)\s+שמאי/;
const COMPARABLES_HEADING = /עסקאות|השוואה|נתוני שוק|סקר שוק/;
const SENTENCE_END = /[.;!?](?=\s|$)/g;

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
  /(?:^|\n)\s*(?:ה?שמאי(?:ת)?(?:\s+ה?(?:מכריע|מכריעה|מייעץ|מייעצת|מקרקעין))?|ערך|ערכה|נערכה?\s+על\s+ידי|מאת)\s*:\s*(?:ה?שמאי(?:ת)?\s+)?([^\n,(]{3,40})/;
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
}

/** The document's sentences (plain-text offsets per page), each marked when it is not this appraiser's. */
function segments(plainPages: readonly string[]): Segment[] {
  const out: Segment[] = [];
  let comparables = false;
  plainPages.forEach((text, i) => {
    for (const block of pageBlocks(text)) {
      if (block.kind === 'heading') comparables = COMPARABLES_HEADING.test(block.norm);
      let from = block.start;
      const body = text.slice(block.start, block.end);
      const ends = [...body.matchAll(SENTENCE_END)].map((m) => block.start + (m.index ?? 0) + 1);
      for (const end of [...ends, block.end]) {
        if (end <= from) continue;
        const sentence = text.slice(from, end);
        const skip = SALE.test(sentence) || OTHER_APPRAISER.test(sentence);
        out.push({ page: i + 1, start: from, end, skip, comparables });
        from = end;
      }
    }
  });
  return out;
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
    const add = (kind: FactKind, name: string | null, value: number, from: number, to: number) => {
      const map = plain[seg.page - 1] ?? { at: (i: number) => i };
      const start = map.at(base + from);
      const end = map.at(base + to);
      facts.push({
        kind,
        name,
        value,
        unit: UNIT[kind],
        parcel,
        plan,
        note: null,
        page: seg.page,
        start,
        end,
        text: (pages[seg.page - 1] ?? '').slice(start, end),
      });
    };
    const money = findMoney(sentence);
    const perSqm = money.filter((m) => PER_SQM.test(sentence.slice(m.end, m.end + 12)));
    const state = /מצב\s+(?:ה?תכנוני\s+)?ה?חדש/.test(sentence)
      ? 'new'
      : /מצב\s+(?:ה?תכנוני\s+)?ה?קודם/.test(sentence)
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
    const cues = CUES.flatMap(([kind, re]) =>
      [...sentence.matchAll(re)].map((m) => ({
        kind,
        start: m.index ?? 0,
        end: (m.index ?? 0) + m[0].length,
        word: m[1],
      })),
    ).sort((a, b) => a.start - b.start);
    cues.forEach((cue, k) => {
      const limit = cues[k + 1]?.start ?? sentence.length;
      if (cue.kind === 'determining_date') {
        const date = findDates(sentence.slice(cue.end, limit))[0];
        if (date !== undefined) add(cue.kind, null, isoToDays(date.iso), cue.start, cue.end + date.end);
      } else if (cue.kind === 'coefficient') {
        const value = coefficientAfter(sentence.slice(cue.end, limit));
        if (value !== null)
          add(cue.kind, canonicalName(`מקדם ${cue.word ?? ''}`), value.value, cue.start, cue.end + value.end);
      } else {
        const m = amounts.find((a) => a.start >= cue.end && a.end <= limit);
        if (m !== undefined) add(cue.kind, null, m.agorot, cue.start, m.end);
      }
    });
    if (own) {
      for (const area of findAreas(sentence)) {
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
