// What the legal normalisers share: the quote marks Hebrew abbreviations are written with (ASCII, Hebrew
// geresh/gershayim, typographic), as a regex class, and a name's canonical spelling for keys.

/** The quote marks inside a Hebrew abbreviation: " ' ״ ׳ ” ’ “ ‘ ` ´ (treated as one), for a regex class. */
export const Q_CHARS = `"'\u05F3\u05F4\u201C\u201D\u2018\u2019\u0060\u00B4`;
export const Q = `[${Q_CHARS}]`;

/** A dash between numbers or in a citation: hyphen, en dash, em dash, maqaf (for a regex class). */
export const DASH_CHARS = '\\-\u2013\u2014\u05BE';
export const DASH = `[${DASH_CHARS}]`;

const MARKS = /[\u0591-\u05BD\u05BF\u05C1\u05C2\u05C4-\u05C7]/g;

/**
 * A name's canonical spelling, for keys: niqqud and quote marks dropped, dashes and spaces collapsed, and
 * the full spelling's doubled letters (בנייה, חשוון) written once, so בנייה/בניה are one key.
 */
export function canonicalName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(MARKS, '')
    .replace(new RegExp(Q, 'g'), '')
    .replace(/\s*[-\u2013\u2014\u05BE]\s*/g, '-')
    .replace(/יי/g, 'י')
    .replace(/וו/g, 'ו')
    .replace(/\s+/g, ' ')
    .replace(/[\s,.;:]+$/, '')
    .trim();
}
