// Citations of rulings and decisions as written in Hebrew legal text: «עע"מ 9001/19 כהן נ' הוועדה המקומית,
// פס' 12», «עת"מ 12345-05-20 …, בעמ' 4». The proceeding's quote marks come in every form (src/legal/text.ts);
// the number is the key a source is found by, the parties and the pinpoint are what is checked against it.

import { normalizeHebrew } from '../hebrew/text.ts';
import { DASH, Q } from '../legal/text.ts';

/** Proceedings as cited, without their quote marks (normalised form), longest first so רע"א is not ע"א. */
const PROCEEDINGS = [
  'בגצ',
  'עעמ',
  'ברמ',
  'עתמ',
  'רעא',
  'דנא',
  'רעפ',
  'עמנ',
  'ערר',
  'ערער',
  'עא',
  'עפ',
  'הפ',
  'תא',
  'בשא',
];

/** A proceeding abbreviation with its quote mark in any form: ע"א, ע״א, ע”א; or the word ערר. */
const PROC_RE = `(?<![\\u05D0-\\u05EA])(?:ערר|בג${Q}{1,2}ץ|[\\u05D0-\\u05EA]{1,3}${Q}{1,2}[\\u05D0-\\u05EA])`;
const NUMBER_RE = `\\d{1,6}(?:\\/\\d{2,4}|${DASH}\\d{1,2}${DASH}\\d{2})`;
const PARTIES_RE = `[^\\n,;()\\[\\]]{1,80}?\\s+נ${Q}\\s+[^\\n,;()\\[\\]]{1,80}?`;
const PINPOINT_RE = `(?:פס${Q}|פסקה|פסקאות|בפסקה|בפס${Q}|סעיף|עמ${Q}|בעמ${Q}|עמוד|בעמוד)\\s*(\\d{1,4})`;
const CITATION = new RegExp(
  `(${PROC_RE})\\s*(?:\\([^)]{1,20}\\)\\s*)?(${NUMBER_RE})(?:\\s+(${PARTIES_RE})(?=[,;(\\n]|\\s+\\(|\\s+פס|\\s+בעמ|\\s+\\[|$))?(?:[^\\n.;]{0,60}?${PINPOINT_RE})?`,
  'gu',
);

export interface Pinpoint {
  kind: 'paragraph' | 'page';
  n: number;
}

export interface FoundCitation {
  text: string;
  number: string;
  /** The proceeding and number as a key: quote marks and spacing aside. */
  key: string;
  parties: string | null;
  pinpoint: Pinpoint | null;
  start: number;
  end: number;
}

const PAGE_WORD = /עמ|עמוד/;

/** A pinpoint as written («פס' 12», «בעמ' 4», «פסקה 7»). */
export function parsePinpoint(text: string): Pinpoint | null {
  const m = new RegExp(PINPOINT_RE, 'u').exec(text);
  if (m === null) return null;
  const n = Number(m[1]);
  return { kind: PAGE_WORD.test(m[0]) ? 'page' : 'paragraph', n };
}

/** The key of a number as cited: the proceeding without quote marks, and the number with one dash form. */
export function citationKey(number: string): string {
  const norm = normalizeHebrew(number.replace(new RegExp(DASH, 'gu'), '-'));
  const digits = /\d[\d/-]*\d|\d/.exec(norm)?.[0] ?? '';
  const proc = norm
    .slice(0, norm.indexOf(digits))
    .replace(/[^\p{L}]/gu, '')
    .trim();
  const known = PROCEEDINGS.find((p) => proc.endsWith(p)) ?? proc;
  return `${known} ${digits}`.trim();
}

/** Just the number part of a key («1108/97»): a source whose number names no proceeding matches on it. */
export const digitsOf = (key: string): string => key.split(' ').at(-1) ?? key;

/** Every citation in a text, in order. */
export function findCitations(text: string): FoundCitation[] {
  const out: FoundCitation[] = [];
  CITATION.lastIndex = 0;
  for (let m = CITATION.exec(text); m !== null; m = CITATION.exec(text)) {
    const number = `${m[1]} ${m[2]}`;
    const pin = m[4] === undefined ? null : parsePinpoint(m[0].slice(m[0].lastIndexOf(m[4]) - 12));
    out.push({
      text: m[0].trim(),
      number,
      key: citationKey(number),
      parties: m[3]?.trim() ?? null,
      pinpoint: pin ?? (m[4] === undefined ? null : { kind: 'paragraph', n: Number(m[4]) }),
      start: m.index,
      end: m.index + m[0].length,
    });
  }
  return out;
}

const NOISE = new Set(['נ', 'נגד', 'ואח', 'ואחרים', 'ואחר', 'בעמ', 'בע', 'מ']);

/** The words of a party names string that identify it (not נ', ואח'). */
const partyWords = (text: string): string[] =>
  normalizeHebrew(text)
    .split(' ')
    .filter((w) => w.length > 1 && !NOISE.has(w));

/** How much of the cited parties' names the source's parties contain (0..1); prefixes like ה and ו ignored. */
export function partiesAgreement(cited: string, source: string): number {
  const mine = partyWords(cited);
  if (mine.length === 0) return 1;
  const theirs = new Set(partyWords(source).flatMap((w) => [w, w.replace(/^[הוול]/, '')]));
  const hit = mine.filter((w) => theirs.has(w) || theirs.has(w.replace(/^[הוול]/, ''))).length;
  return hit / mine.length;
}
