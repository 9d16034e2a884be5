// Areas and percentages as appraisals write them: «540 מ"ר», «1.5 דונם», «32 מטרים רבועים» (areas in square
// metres; a dunam is 1,000 m²), «8%», «8 אחוזים», «0.85» stays a number (a coefficient written as a fraction
// is read by the appraisal rules, which know the cue). Garbage is no value, never an exception.
import { Q } from './text.ts';

export interface FoundMeasure {
  value: number;
  start: number;
  end: number;
  text: string;
}

const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;

/** A number as written (thousands separators, a decimal point), or null when malformed. */
export function numberOf(text: string): number | null {
  if (text.includes(',') && !/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(text)) return null;
  const plain = text.replace(/,/g, '');
  if (!/^\d+(\.\d+)?$/.test(plain)) return null;
  const n = Number(plain);
  return Number.isFinite(n) ? n : null;
}

/** Rounds away binary noise (1.5 × 1000 is 1500, not 1499.9999). */
const tidy = (n: number) => Math.round(n * 1e6) / 1e6;

const SQM = `(?:מ${Q}{1,2}ר|מטר(?:ים)?\\s+רבוע(?:ים)?|מ²|m²|sqm)`;
const DUNAM = '(?:דונמים|דונם|דונאם)';
const AREA = new RegExp(`(?<![\\d.,])(${NUMBER})(?!\\d|,\\d)\\s*(?:(${SQM})|(${DUNAM}))(?![א-ת])`, 'g');

/** Every area in a text, in square metres. */
export function findAreas(text: string): FoundMeasure[] {
  const out: FoundMeasure[] = [];
  AREA.lastIndex = 0;
  for (let m = AREA.exec(text); m !== null; m = AREA.exec(text)) {
    const n = numberOf(m[1] ?? '');
    if (n === null || n <= 0 || n > 1e9) continue;
    out.push({
      value: tidy(m[3] !== undefined ? n * 1000 : n),
      start: m.index,
      end: m.index + m[0].length,
      text: m[0],
    });
  }
  return out;
}

const PERCENT = new RegExp(`(?<![\\d.,])(${NUMBER})(?!\\d|,\\d)\\s*(?:%|אחוזים|אחוז)(?![א-ת])`, 'g');

/** Every percentage in a text (8% → 8). */
export function findPercents(text: string): FoundMeasure[] {
  const out: FoundMeasure[] = [];
  PERCENT.lastIndex = 0;
  for (let m = PERCENT.exec(text); m !== null; m = PERCENT.exec(text)) {
    const n = numberOf(m[1] ?? '');
    if (n === null || n > 1000) continue;
    out.push({ value: tidy(n), start: m.index, end: m.index + m[0].length, text: m[0] });
  }
  return out;
}

/** One written area in square metres, or null. */
export function normalizeArea(text: string): number | null {
  const t = text.trim();
  const [only, ...rest] = findAreas(t);
  return only !== undefined && rest.length === 0 && only.start === 0 && only.end === t.length
    ? only.value
    : null;
}
