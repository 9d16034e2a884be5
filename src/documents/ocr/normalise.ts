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
      .split('\n')
      .map(lineInReadingOrder)
      .join('\n')
      .trim()
  );
}

const HEBREW = /[\u05d0-\u05ea]/g;
const LATIN = /[A-Za-z]/g;
const count = (s: string, re: RegExp) => s.match(re)?.length ?? 0;

/**
 * A line as read, when Tesseract took a Hebrew line for a left-to-right one (it does with the English model
 * beside the Hebrew, when the line's leftmost word is a number or Latin): it then gives the line's runs in
 * visual order, left to right — «.3.6.2024 המגרש בשטח 620 מ"ר», «₪ 6,100,000 שווי במצב קודם:» — each Hebrew
 * run (with the numbers inside it) already in reading order. A mostly-Hebrew line that starts with
 * punctuation or a currency sign has its runs put back in right-to-left order: a run of numbers and signs reversed word by
 * word («6,100,000 ₪»), a Latin run kept, and punctuation that led the line moved to its end. A mostly-Latin
 * line that starts with a full stop or comma (the same confusion the other way) has it moved to its end.
 */
export function lineInReadingOrder(line: string): string {
  const words = line.split(' ').filter((w) => w !== '');
  if (words.length < 2) return line;
  const hebrew = count(line, HEBREW);
  const latin = count(line, LATIN);
  const first = words[0] ?? '';
  if (hebrew <= latin) {
    const lead = /^[.,:;!?]+(?=\p{L})/u.exec(first)?.[0];
    return lead === undefined ? line : `${first.slice(lead.length)} ${words.slice(1).join(' ')}${lead}`;
  }
  // Only a line whose first word shows it is in visual order: one that starts with what ends a sentence or
  // follows an amount (a full stop, a comma, a colon, ₪) — a line may well begin with a number or a Latin
  // word in reading order («620 מ"ר…», «1. מיניתי…»).
  if (!/^[.,:;!?₪$%]/.test(first)) return line;
  const kind = (w: string): 'R' | 'L' | 'N' => (count(w, HEBREW) > 0 ? 'R' : count(w, LATIN) > 0 ? 'L' : 'N');
  // Runs: a Hebrew run takes the numbers and signs between its Hebrew words; a Latin word breaks it.
  const runs: { kind: 'R' | 'L' | 'N'; words: string[] }[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? '';
    let k = kind(w);
    if (k === 'N' && runs.at(-1)?.kind === 'R') {
      const next = words.slice(i + 1).find((x) => kind(x) !== 'N');
      if (next !== undefined && kind(next) === 'R') k = 'R';
    }
    const last = runs.at(-1);
    if (last !== undefined && last.kind === k) last.words.push(w);
    else runs.push({ kind: k, words: [w] });
  }
  return runs
    .reverse()
    .map((run, i) => {
      if (run.kind === 'R') return run.words.join(' ');
      const ws = run.kind === 'N' ? [...run.words].reverse() : run.words;
      let text = ws.join(' ');
      // The line's last run (its leftmost, visually): punctuation shown before it ends the sentence.
      if (i === runs.length - 1) {
        const lead = /^[.,:;!?]+/.exec(text)?.[0];
        if (lead !== undefined && lead.length < text.length) text = `${text.slice(lead.length)}${lead}`;
      }
      return text;
    })
    .join(' ');
}

const FINAL: Record<string, string> = { כ: 'ך', מ: 'ם', נ: 'ן', פ: 'ף', צ: 'ץ' };
