// Citations of rulings and decisions as written in Hebrew legal text: «עע"מ 9001/19 כהן נ' הוועדה המקומית,
// פס' 12», «עת"מ 12345-05-20 …, בעמ' 4». The proceeding's quote marks come in every form (src/legal/text.ts);
// the number is read by the one grammar reader (src/legal/proceedings.ts) and its key is what a source is
// found by; the parties and the pinpoint are what is checked against it.

import { normalizeHebrew } from '../hebrew/text.ts';
import { findProceedings } from '../legal/proceedings.ts';
import { Q } from '../legal/text.ts';

const PARTIES_RE = `[^\\n,;()\\[\\]]{1,80}?\\s+נ${Q}\\s+[^\\n,;()\\[\\]]{1,80}?`;
const PINPOINT_RE = `(?:פס${Q}|פסקה|פסקאות|בפסקה|בפס${Q}|סעיף|עמ${Q}|בעמ${Q}|עמוד|בעמוד)\\s*(\\d{1,4})`;
/** What follows a proceeding number in a citation: the parties, then a pinpoint a few words on. */
const TAIL = new RegExp(
  `(?:\\s+(${PARTIES_RE})(?=[,;(\\n]|\\s+\\(|\\s+פס|\\s+בעמ|\\s+\\[|$))?(?:[^\\n.;]{0,60}?${PINPOINT_RE})?`,
  'uy',
);

export interface Pinpoint {
  kind: 'paragraph' | 'page';
  n: number;
}

export interface FoundCitation {
  text: string;
  number: string;
  /** The proceeding's key (src/legal/proceedings.ts). */
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

/** A key as draft_validate reports it: the proceeding's letters without quote marks («עעמ 9001/19»). */
export const unquotedKey = (key: string): string => normalizeHebrew(key);

/**
 * Every citation in a text, in order: each proceeding number the grammar reader finds (any prefix letters,
 * quote marks, court), with the parties and pinpoint written after it, before the next number.
 */
export function findCitations(text: string): FoundCitation[] {
  const found = findProceedings(text);
  return found.map((f, i) => {
    const tail = text.slice(0, found[i + 1]?.start ?? text.length);
    TAIL.lastIndex = f.end;
    const m = TAIL.exec(tail);
    const parties = m?.[1];
    const pinAt = m?.[2];
    const all = `${f.text}${m?.[0] ?? ''}`;
    const pin =
      m === null || pinAt === undefined
        ? null
        : (parsePinpoint(all.slice(Math.max(0, all.lastIndexOf(pinAt) - 12))) ?? {
            kind: 'paragraph' as const,
            n: Number(pinAt),
          });
    return {
      text: all.trim(),
      number: f.text,
      key: f.key,
      parties: parties?.trim() ?? null,
      pinpoint: pin,
      start: f.start,
      end: f.end + (m?.[0].length ?? 0),
    };
  });
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
