// The citations of rulings and decisions inside a document, by rule: every proceeding number (normalised,
// src/legal/proceedings.ts) but the document's own, with the sentence around it and its treatment, read from
// the words around it as the commercial citators classify it: a cue before a citation governs it and the ones
// after it in the sentence until the next cue (כפי שנקבע ב…, ראו, להבדיל מ…, איני שותף לגישה ש…); a cue just
// after a citation speaks of that one (… נהפכה, … עניינו שונה). The strongest wins: overruled or reversed,
// then criticised, distinguished, relied on; a citation no cue speaks of is mentioned.

import type { Treatment } from '../db/schema/vocabulary.ts';
import { findProceedings } from '../legal/proceedings.ts';

export interface CitationCandidate {
  key: string;
  proceeding: string;
  page: number;
  start: number;
  end: number;
  text: string;
  treatment: Treatment;
  cue: { text: string; start: number; end: number } | null;
  /** The sentence it is in (the citing passage), whitespace collapsed. */
  passage: string;
}

const w = (phrase: string) => phrase.replace(/ /g, '\\s+');

/** Cues before the citations they govern, strongest treatment first. */
const BEFORE: [Treatment, string[]][] = [
  ['overruled_or_reversed', ['הפך את', 'ביטל את', 'בוטלה ההלכה', 'נהפכה ההלכה']],
  [
    'criticised',
    ['איני שותף', 'אינני שותף', 'יש להסתייג', 'להסתייג', 'איני מקבל', 'אינני מקבל', 'קשה לקבל', 'ספק בעיני'],
  ],
  ['distinguished', ['להבדיל מ', 'בשונה מ', 'יש לאבחן', 'ניתן לאבחן', 'אבחנה']],
  [
    'relied_on',
    [
      'בהתאם להלכה שנקבעה',
      'ההלכה שנקבעה',
      'בהתאם להלכה',
      'על פי ההלכה',
      'לפי ההלכה',
      'כפי שנקבע',
      'כפי שנפסק',
      'כפי שפסק',
      'ראו גם',
      'ראו',
      'ראה',
      'כאמור',
      'יפים לענייננו',
      'בדומה ל',
    ],
  ],
];

/** Cues right after the citation they speak of. */
const AFTER: [Treatment, string[]][] = [
  ['overruled_or_reversed', ['בוטלה', 'בוטל', 'בוטלו', 'נהפכה', 'נהפך', 'נהפכו', 'התהפכה']],
  ['distinguished', ['עניינו שונה', 'עניינה שונה', 'נסיבותיו שונות', 'נסיבותיה שונות', 'שונה', 'אינו דומה']],
];

const RANK: Record<Treatment, number> = {
  overruled_or_reversed: 4,
  criticised: 3,
  distinguished: 2,
  relied_on: 1,
  mentioned: 0,
};

const cueRegex = (table: [Treatment, string[]][], endsWord: boolean) => {
  const all = table.flatMap(([t, phrases]) => phrases.map((p) => [t, p] as const));
  all.sort((a, b) => b[1].length - a[1].length);
  // A cue ending in a prefix letter (להבדיל מ, בדומה ל) runs into the next word; the others end a word.
  const alts = all.map(([, p]) => (endsWord && !/ [מל]$/.test(p) ? `${w(p)}(?![א-ת])` : w(p)));
  const re = new RegExp(`(?<![א-ת])(?:ו)?(${alts.join('|')})`, 'g');
  const treatmentOf = (text: string) => {
    const flat = text.replace(/\s+/g, ' ');
    return all.find(([, p]) => p === flat)?.[0] ?? 'mentioned';
  };
  return { re, treatmentOf };
};

const BEFORE_CUES = cueRegex(BEFORE, true);
const AFTER_CUES = cueRegex(AFTER, true);
/** How far after a citation an after-cue may be (the citation's own words: «ההלכה שב… נהפכה»). */
const AFTER_GAP = 40;

interface Cue {
  treatment: Treatment;
  text: string;
  start: number;
  end: number;
}

function cuesIn(text: string, from: number, to: number, table: typeof BEFORE_CUES): Cue[] {
  const out: Cue[] = [];
  const slice = text.slice(from, to);
  table.re.lastIndex = 0;
  for (let m = table.re.exec(slice); m !== null; m = table.re.exec(slice)) {
    const phrase = m[1] ?? '';
    const start = from + m.index + m[0].length - phrase.length;
    out.push({ treatment: table.treatmentOf(phrase), text: phrase, start, end: start + phrase.length });
  }
  return out;
}

/**
 * The sentences of a page as [start, end) ranges: a sentence ends at . ! ? or ; before white space, at a
 * blank line, or before a numbered paragraph or a heading line (a PDF's wrapped lines stay in their sentence).
 */
function sentences(text: string): [number, number][] {
  const out: [number, number][] = [];
  const boundary = /[.!?;](?=\s|$)|\n\s*\n|\n(?=\s*\d{1,3}\.\s)/g;
  let start = 0;
  for (let m = boundary.exec(text); m !== null; m = boundary.exec(text)) {
    const end = m.index + m[0].length;
    out.push([start, end]);
    start = end;
  }
  if (start < text.length) out.push([start, text.length]);
  return out;
}

/** The citations in a document's pages, in order; `own` keys (the document's own number) are left out. */
export function extractCitations(pages: readonly string[], own: readonly string[] = []): CitationCandidate[] {
  const out: CitationCandidate[] = [];
  pages.forEach((text, i) => {
    const found = findProceedings(text).filter((f) => !own.includes(f.key));
    if (found.length === 0) return;
    for (const [from, to] of sentences(text)) {
      const inside = found.filter((f) => f.start >= from && f.start < to);
      if (inside.length === 0) continue;
      const before = cuesIn(text, from, to, BEFORE_CUES);
      const after = cuesIn(text, from, to, AFTER_CUES);
      const passage = text.slice(from, to).replace(/\s+/g, ' ').trim();
      inside.forEach((f, n) => {
        const next = inside[n + 1]?.start ?? to;
        // The nearest cue before it (not inside an earlier citation), and an after-cue close behind it.
        const governing = before.filter((c) => c.end <= f.start).at(-1);
        const following = after.find(
          (c) => c.start >= f.end && c.start < next && c.start - f.end <= AFTER_GAP,
        );
        let cue: Cue | undefined;
        for (const c of [governing, following]) {
          if (c !== undefined && (cue === undefined || RANK[c.treatment] > RANK[cue.treatment])) cue = c;
        }
        out.push({
          key: f.key,
          proceeding: f.kind,
          page: i + 1,
          start: f.start,
          end: f.end,
          text: f.text,
          treatment: cue?.treatment ?? 'mentioned',
          cue: cue === undefined ? null : { text: cue.text, start: cue.start, end: cue.end },
          passage,
        });
      });
    }
  });
  return out;
}
