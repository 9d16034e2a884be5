/**
 * OCR output as a reader would type it. Tesseract gives Hebrew lines in logical (reading) order already;
 * what is left is its habits: niqqud and cantillation marks (never in our documents' text), presentation
 * forms and ligatures (final letters, «שׁ»), an ordinary letter where a final one belongs at a word's end,
 * quote marks in several forms, digits split by a stray space inside a number, and ragged whitespace.
 */
export function normaliseOcrText(raw: string): string {
  return (
    raw
      // Presentation forms (U+FB1D–FB4F: «שׁ», «אּ», final-letter variants) decompose to base letter + marks.
      .replace(/[\ufb1d-\ufb4f]/g, (c) => c.normalize('NFKD'))
      // Niqqud, dagesh, shin/sin dots and cantillation: U+0591–U+05C7 less the punctuation maqaf, paseq, sof pasuq.
      .replace(/[\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7]/g, '')
      // Geresh and gershayim as typed: «ג'», «מ"ר».
      .replace(/[\u05f3\u2019\u2018\u00b4`]/g, "'")
      .replace(/[\u05f4\u201c\u201d\u201e\u00ab\u00bb]/g, '"')
      .replace(/[\u2013\u2014]/g, '-')
      // A Hebrew letter in its ordinary form at the end of a word takes its final form (כ→ך, מ→ם, נ→ן, פ→ף, צ→ץ),
      // except a one-letter word or an abbreviation mark after it («מ'», «מ"ר»).
      .replace(/(?<=[\u05d0-\u05ea])[כמנפצ](?![\u05d0-\u05ea'"])/g, (c) => FINAL[c] ?? c)
      // A digit group broken by one space by the engine («66 38») is not repaired here: two numbers may
      // stand side by side. Whitespace: no tabs, single spaces, no blank runs of more than one line.
      .replace(/[\t\u00a0\u200e\u200f\u202a-\u202e]/g, (c) => (c === '\t' || c === '\u00a0' ? ' ' : ''))
      .replace(/ {2,}/g, ' ')
      .replace(/ *\n */g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}

const FINAL: Record<string, string> = { כ: 'ך', מ: 'ם', נ: 'ן', פ: 'ף', צ: 'ץ' };
