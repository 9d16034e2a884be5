// An appraisal's text as the reader's segments: sentences of its paragraphs, each table row («cell | cell») and
// each bullet on its own, with the cells of a row whose figures are this appraiser's (by the header row above
// it), and each marked when it is not this appraiser's (a sale, another appraiser's figures) or sits under a
// comparables heading.
import {
  BULLET,
  COMPARABLES_HEADING,
  DECIDING_COLUMN,
  OTHER_APPRAISER,
  ROW,
  SALE,
  SENTENCE_END,
} from './appraisal_cues.ts';
import { pageBlocks } from './layout.ts';

export interface Segment {
  page: number;
  start: number;
  end: number;
  /** Not this appraiser's facts: a sale, or another appraiser's figures. */
  skip: boolean;
  /** Under a comparables heading: its areas and prices are the comparables', not the subject's. */
  comparables: boolean;
  /** A table row: the ranges of its cells (in the page's plain text) whose figures are this appraiser's. */
  cells: { start: number; end: number }[] | null;
}

/** A row's cells with their offsets (cells are joined by « | »). */
function cellsOf(text: string, start: number, end: number): { start: number; end: number; text: string }[] {
  const out: { start: number; end: number; text: string }[] = [];
  let from = start;
  const line = text.slice(start, end);
  for (const m of line.matchAll(/ \| /g)) {
    const to = start + (m.index ?? 0);
    out.push({ start: from, end: to, text: text.slice(from, to) });
    from = to + m[0].length;
  }
  out.push({ start: from, end, text: text.slice(from, end) });
  return out;
}

/**
 * The cells of a table row whose figures count, by the last header row above it: the deciding column when
 * there is one, else every column but those of another appraiser; null when the row has no figure of ours.
 */
function ownCells(
  cells: { start: number; end: number; text: string }[],
  header: string[] | null,
): { start: number; end: number }[] | null {
  if (header === null || header.length !== cells.length) return cells;
  const deciding = header.findIndex((h, i) => i > 0 && DECIDING_COLUMN.test(h));
  if (deciding > 0) return [cells[0], cells[deciding]].filter((c) => c !== undefined);
  const kept = cells.filter((_, i) => i === 0 || !OTHER_APPRAISER.test(header[i] ?? ''));
  return kept.length > 1 ? kept : null;
}

/** The document's sentences (plain-text offsets per page), each marked when it is not this appraiser's. */
export function segments(plainPages: readonly string[]): Segment[] {
  const out: Segment[] = [];
  let comparables = false;
  plainPages.forEach((text, i) => {
    let header: string[] | null = null;
    for (const block of pageBlocks(text)) {
      if (block.kind === 'heading' && !ROW.test(text.slice(block.start, block.end)))
        comparables = COMPARABLES_HEADING.test(block.norm);
      // A table row or a bullet is a segment of its own, whatever the blocks made of its lines.
      const lines: { start: number; end: number }[] = [];
      let at = block.start;
      for (const line of text.slice(block.start, block.end).split('\n')) {
        const prev = lines.at(-1);
        const own = ROW.test(line) || BULLET.test(line);
        if (prev !== undefined && !own && !ROW.test(text.slice(prev.start, prev.end)))
          prev.end = at + line.length;
        else lines.push({ start: at, end: at + line.length });
        at += line.length + 1;
      }
      for (const line of lines) {
        const body = text.slice(line.start, line.end);
        if (ROW.test(body)) {
          const cells = cellsOf(text, line.start, line.end);
          const figures = cells.some((c) => /\d/.test(c.text));
          if (!figures) {
            header = cells.map((c) => c.text);
            comparables = COMPARABLES_HEADING.test(body) || comparables;
            continue;
          }
          const kept = ownCells(cells, header);
          const skip = kept === null || SALE.test(body) || OTHER_APPRAISER.test(cells[0]?.text ?? '');
          out.push({ page: i + 1, start: line.start, end: line.end, skip, comparables, cells: kept });
          continue;
        }
        header = null;
        let from = line.start;
        const ends = [...body.matchAll(SENTENCE_END)].map((m) => line.start + (m.index ?? 0) + 1);
        for (const end of [...ends, line.end]) {
          if (end <= from) continue;
          const sentence = text.slice(from, end);
          const skip = SALE.test(sentence) || OTHER_APPRAISER.test(sentence);
          out.push({ page: i + 1, start: from, end, skip, comparables, cells: null });
          from = end;
        }
      }
    }
  });
  return out;
}
