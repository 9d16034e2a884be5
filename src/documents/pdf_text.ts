// A PDF page's text rebuilt from where its pieces sit. pdf.js gives text items in drawing order, each with its
// string (in logical order within the item) and its position; joined as they come, a word gap drawn by
// moving the pen has no space («ערר8123/25»), and a right-to-left line whose words were drawn one by one comes
// back in drawing order. Here the items are grouped into lines by their baselines, ordered along the line
// by x, reordered for reading (a line mostly in Hebrew reads right to left; a number or a Latin run inside
// it stays whole, left to right), and a gap wider than a fraction of the font size becomes a space.

/** A pdf.js text item (the fields page text is built from). */
export interface TextItem {
  str: string;
  dir?: string;
  /** [a, b, c, d, e, f]: e, f the baseline origin; d (or a) the font size, in page units. */
  transform: number[];
  width: number;
  height: number;
  hasEOL?: boolean;
}

interface Piece {
  str: string;
  x: number;
  y: number;
  width: number;
  size: number;
  cls: 'R' | 'L' | 'N';
}

const RTL = /[\u0590-\u05FF\u0600-\u06FF\uFB1D-\uFB4F]/;
const LTR = /[0-9A-Za-z\u00C0-\u024F]/;
const RTL_ALL = /[\u0590-\u05FF\u0600-\u06FF\uFB1D-\uFB4F]/g;
const LTR_ALL = /[A-Za-z\u00C0-\u024F]/g;
/** A gap wider than this share of the font size is a space (a word space is about a quarter to a third). */
const SPACE_GAP = 0.15;

const isNumber = (p: Piece | undefined) => p !== undefined && /[0-9]/.test(p.str) && !/[A-Za-z]/.test(p.str);

const classOf = (s: string): Piece['cls'] => (RTL.test(s) ? 'R' : LTR.test(s) ? 'L' : 'N');

/** A page's text: lines top to bottom, each in reading order, with the spaces its gaps make. */
export function pageText(items: readonly TextItem[]): string {
  const pieces: Piece[] = [];
  for (const item of items) {
    if (item.str === '') continue;
    const [a = 1, b = 0, , d = 1, e = 0, f = 0] = item.transform;
    // Rotated text has no left-to-right baseline to order along: keep pdf.js's order for the page.
    if (Math.abs(b) > Math.abs(a) * 0.1) return drawingOrder(items);
    const size = Math.abs(d) || Math.abs(a) || item.height || 1;
    pieces.push({ str: item.str, x: e, y: f, width: item.width, size, cls: classOf(item.str) });
  }
  const lines = linesOf(pieces);
  // A line without letters («₪.» wrapped alone) continues the direction of the line before it; the first
  // takes the page's.
  let rtl = directionOf(pieces.map((p) => p.str).join('')) ?? false;
  return lines
    .map((line) => {
      rtl = directionOf(line.map((p) => p.str).join('')) ?? rtl;
      return lineText(line, rtl);
    })
    .join('\n');
}

const drawingOrder = (items: readonly TextItem[]) =>
  items.map((i) => i.str + (i.hasEOL === true ? '\n' : '')).join('');

/** Pieces grouped by baseline (a superscript joins the line it sits on), top line first. */
function linesOf(pieces: Piece[]): Piece[][] {
  const sorted = [...pieces].sort((p, q) => q.y - p.y || p.x - q.x);
  const lines: { y: number; size: number; pieces: Piece[] }[] = [];
  for (const p of sorted) {
    const line = lines.at(-1);
    if (line !== undefined && Math.abs(line.y - p.y) < 0.5 * Math.max(line.size, p.size)) {
      line.pieces.push(p);
      line.size = Math.max(line.size, p.size);
    } else lines.push({ y: p.y, size: p.size, pieces: [p] });
  }
  return lines.map((l) => dedupe(l.pieces.sort((p, q) => p.x - q.x)));
}

/** The same string drawn twice in one place (a bold effect) is read once. */
function dedupe(pieces: Piece[]): Piece[] {
  return pieces.filter((p, i) => {
    const prev = pieces[i - 1];
    return !(prev && prev.str === p.str && Math.abs(prev.x - p.x) < 0.1 * p.size);
  });
}

/** Right to left when Hebrew letters are at least as many as Latin ones; null without either. */
function directionOf(text: string): boolean | null {
  const r = text.match(RTL_ALL)?.length ?? 0;
  const l = text.match(LTR_ALL)?.length ?? 0;
  return r === 0 && l === 0 ? null : r >= l;
}

/** One line, from its pieces in visual order (left to right), in reading order. */
function lineText(visual: Piece[], rtl: boolean): string {
  // spaceAfter[i]: a space between visual pieces i and i + 1.
  const spaceAfter = visual.map((p, i) => {
    const next = visual[i + 1];
    if (next === undefined || /\s$/.test(p.str) || /^\s/.test(next.str)) return false;
    return next.x - (p.x + p.width) > SPACE_GAP * Math.min(p.size, next.size);
  });
  // Neutral pieces (punctuation, spaces) between two left-to-right pieces join them (12 . 3 . 2025);
  // elsewhere they take the line's direction.
  const cls = visual.map((p, i): 'R' | 'L' => {
    if (p.cls !== 'N') return p.cls;
    const before = visual.slice(0, i).findLast((q) => q.cls !== 'N')?.cls;
    const after = visual.slice(i + 1).find((q) => q.cls !== 'N')?.cls;
    if (before === 'L' && after === 'L') return 'L';
    if (before === 'R' && after === 'R') return 'R';
    return rtl ? 'R' : 'L';
  });
  const runs: { cls: 'R' | 'L'; from: number; to: number }[] = [];
  cls.forEach((c, i) => {
    const last = runs.at(-1);
    // Numbers apart from each other in a right-to-left line (table columns: «160%   210%») are separate
    // runs, each read left to right, the runs right to left; Latin words with numbers stay one run.
    const apart = rtl && spaceAfter[i - 1] === true && isNumber(visual[i - 1]) && isNumber(visual[i]);
    if (last?.cls === c && !apart) last.to = i;
    else runs.push({ cls: c, from: i, to: i });
  });
  // Reading order: in a right-to-left line the runs go right to left, and so do the pieces of a Hebrew run;
  // a left-to-right run inside it reads left to right. The converse in a left-to-right line.
  const ordered = rtl ? [...runs].reverse() : runs;
  let out = '';
  let prevRun: { to: number } | null = null;
  for (const run of ordered) {
    const forward = run.cls === 'L';
    const indices: number[] = [];
    for (let i = run.from; i <= run.to; i++) indices.push(i);
    if (!forward) indices.reverse();
    // Runs next to each other in reading order are next to each other on the line: their shared gap.
    if (prevRun !== null && spaceAfter[Math.min(prevRun.to, run.to)] === true) out += ' ';
    indices.forEach((i, k) => {
      const prev = indices[k - 1];
      if (prev !== undefined && spaceAfter[Math.min(prev, i)] === true) out += ' ';
      const piece = visual[i] as Piece;
      // pdf.js leaves a piece without letters as drawn (left to right): in a right-to-left run it reads
      // backwards («.₪» at the end of a line is «₪.»).
      out += !forward && piece.cls === 'N' ? [...piece.str].reverse().join('') : piece.str;
    });
    prevRun = run;
  }
  return out.replace(/\s+/g, ' ').trim();
}
