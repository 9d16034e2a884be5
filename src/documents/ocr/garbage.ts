/**
 * Whether a PDF page's text layer is garbage: the invisible OCR layer of a bad scan, or a font without a
 * Unicode map (pdf.js then gives private-use code points, U+FFFD, or Latin-1 letters standing for Hebrew
 * glyphs). Such a page is read by OCR instead. The rule, over the page's non-space characters:
 * - a share of 10% or more that is U+FFFD, private use, control or a replacement-like symbol; or
 * - of its words of two letters or more, 40% or more that are no word: mixed Hebrew and Latin letters inside
 *   one word, or Latin words without any vowel letter (a, e, i, o, u, y) — the mark of Hebrew glyphs
 *   mapped to Latin codes («ìåò äéä»: Latin-1 for Hebrew, which has vowel-less strings like «çìå»).
 * A page with fewer than 20 non-space characters is judged on the first rule only (too little to judge words).
 */
export function isGarbageText(text: string): boolean {
  const chars = [...text.replace(/\s+/g, '')];
  if (chars.length === 0) return false;
  const bad = chars.filter((c) => BAD.test(c)).length;
  if (bad / chars.length >= 0.1) return true;
  if (chars.length < 20) return false;
  const words = text.split(/[\s.,;:!?()[\]{}"'«»/\\|־–—-]+/).filter((w) => [...w].length >= 2);
  const letterWords = words.filter((w) => /\p{L}/u.test(w));
  if (letterWords.length < 3) return false;
  const nonsense = letterWords.filter(isNonsenseWord).length;
  return nonsense / letterWords.length >= 0.4;
}

// Replacement character, private use, C0/C1 controls (a tab or newline is whitespace, removed above).
const BAD = /[\ufffd\ue000-\uf8ff\p{Cc}]|[\u{f0000}-\u{10ffff}]/u;

function isNonsenseWord(word: string): boolean {
  const hebrew = /[\u05d0-\u05ea]/.test(word);
  const latin = /[A-Za-z\u00c0-\u024f]/.test(word);
  if (hebrew && latin) return true;
  if (!latin) return false;
  // Latin-1 accented letters make up a word of a European language only now and then; most of a page
  // of them is a Hebrew font mapped to Latin-1.
  const accented = [...word].filter((c) => /[\u00c0-\u024f]/.test(c)).length;
  if (accented * 2 >= [...word].length) return true;
  const letters = word.replace(/[^A-Za-z\u00c0-\u024f]/g, '');
  // An abbreviation or code in capitals («PDF», «GIS», «TLV») is a word.
  if (letters.length <= 5 && letters === letters.toUpperCase()) return false;
  return letters.length >= 3 && !/[aeiouyAEIOUY]/.test(letters);
}
