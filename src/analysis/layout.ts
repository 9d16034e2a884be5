// A page's text as blocks: headings and numbered paragraphs, with offsets into the page text exactly as
// document_text_get returns it. Text files and DOCX give one line per paragraph; PDF text wraps a paragraph
// over several lines, so an unlabelled line continues the paragraph above it unless it reads as a heading.
import { normalizeHebrew } from '../hebrew/text.ts';

export interface Block {
  kind: 'heading' | 'paragraph';
  /** The paragraph's number as written ("5", "א", "(2)", "5.1"); null for a heading or an unnumbered paragraph. */
  label: string | null;
  /** The label's style, so a sub-list (א., ב. under 4.) can be told from the main list. */
  style: 'digit' | 'letter' | 'paren' | 'dotted' | 'bullet' | null;
  /** Offsets of the block's text, after its label, in the page text. */
  start: number;
  end: number;
  /** normalizeHebrew of the block's text. */
  norm: string;
}

const LABELS: [RegExp, Block['style']][] = [
  [/^(\d{1,3}(?:\.\d{1,2})+)\.?\s+/, 'dotted'],
  [/^(\d{1,3})\s*[.)]\s+/, 'digit'],
  [/^\(([1-9]\d{0,2}|[א-ט]|י[א-ט]?|כ[א-ט]?)\)\s+/, 'paren'],
  [/^([א-ט]|י[א-ט]?|כ[א-ט]?)[.)]\s+/, 'letter'],
];

/** A bullet (•, ▪, ●, -, –, —, *) before a paragraph; read only when the reader asks for bullets. */
const BULLET = /^([•▪●◦·*\-–—])\s+/;

/** A line's label, or null: { label, style, length of the label with its spacing }. */
export function labelOf(
  line: string,
): { label: string; style: NonNullable<Block['style']>; length: number } | null {
  for (const [re, style] of LABELS) {
    const m = re.exec(line);
    if (m !== null && style !== null) return { label: m[1] ?? '', style, length: m[0].length };
  }
  return null;
}

/** At most this many words, and no sentence punctuation at its end: a heading, not a sentence. */
const HEADING_WORDS = 8;

/** Whether an unlabelled line reads as a heading: short, not ending a sentence or a clause. */
export function headingLike(line: string): boolean {
  const t = line.trim();
  if (t === '' || /[.,;]$/.test(t)) return false;
  return t.split(/\s+/).length <= HEADING_WORDS;
}

export interface BlockOptions {
  /** A short labelled line with this text is a heading («ב. טענות העוררים»). */
  isHeading?: (norm: string) => boolean;
  /** Bulleted lines (•, -, –, *) are paragraphs of their own, not wrapped lines of the one above. */
  bullets?: boolean;
  /**
   * A letter-labelled line that reads as a heading (short, no closing punctuation) and is followed by a blank
   * line or by a differently labelled one is a heading of its own («ב. הפגמים בהחלטה» over 4., 5.).
   */
  letteredHeadings?: boolean;
}

/**
 * The blocks of one page. A labelled line starts a paragraph; an unlabelled line is a heading when it reads
 * as one, else it continues the paragraph above (a wrapped line) or starts an unnumbered one. A short
 * labelled line whose text is a known heading (`isHeading`) is a heading too («ב. טענות העוררים»).
 */
export function pageBlocks(page: string, options: BlockOptions | ((norm: string) => boolean) = {}): Block[] {
  const opts: BlockOptions = typeof options === 'function' ? { isHeading: options } : options;
  const isHeading = opts.isHeading ?? (() => false);
  const blocks: Block[] = [];
  let open: Block | undefined;
  let at = 0;
  const lines = page.split('\n');
  for (const [n, raw] of lines.entries()) {
    const lineStart = at;
    at += raw.length + 1;
    const leading = raw.length - raw.trimStart().length;
    const line = raw.trim();
    if (line === '') {
      open = undefined;
      continue;
    }
    const start = lineStart + leading;
    const end = start + line.length;
    const bullet = opts.bullets === true ? BULLET.exec(line) : null;
    const label =
      bullet !== null
        ? { label: bullet[1] ?? '', style: 'bullet' as const, length: bullet[0].length }
        : labelOf(line);
    const text = label === null ? line : line.slice(label.length);
    const norm = normalizeHebrew(text);
    const nextLine = (lines[n + 1] ?? '').trim();
    const lettered =
      opts.letteredHeadings === true &&
      label?.style === 'letter' &&
      headingLike(text) &&
      (nextLine === '' || (labelOf(nextLine)?.style ?? 'letter') !== 'letter');
    if (
      (label === null && headingLike(line)) ||
      lettered ||
      (label?.style !== 'bullet' && text.split(/\s+/).length <= 5 && isHeading(norm))
    ) {
      blocks.push({
        kind: 'heading',
        label: null,
        style: null,
        start: start + (label?.length ?? 0),
        end,
        norm,
      });
      open = undefined;
      continue;
    }
    if (label === null && open !== undefined) {
      open.end = end;
      open.norm = `${open.norm} ${norm}`;
      continue;
    }
    open = {
      kind: 'paragraph',
      label: label === null || label.style === 'bullet' ? null : label.label,
      style: label?.style ?? null,
      start: start + (label?.length ?? 0),
      end,
      norm,
    };
    blocks.push(open);
  }
  return blocks;
}

/** Whether a normalised text has a word starting with one of the normalised cues (a cue may be several words). */
export function hasCue(norm: string, cues: readonly string[]): boolean {
  const padded = ` ${norm} `;
  return cues.some((cue) => padded.includes(` ${cue}`));
}

/** Cues written as people write them, normalised the way texts are (final letters, quote marks). */
export const cueList = (...cues: string[]): string[] => cues.map((c) => normalizeHebrew(c));

const MARK = /[\u0591-\u05BD\u05BF\u05C1\u05C2\u05C4-\u05C7]/;

/**
 * A text without niqqud and cantillation, for rules that read words (ההַשְׁבָּחָה is ההשבחה), with a map back to
 * the original offsets: `at(i)` is where the plain text's offset i is in the original.
 */
export function plainText(text: string): { text: string; at(i: number): number } {
  if (!MARK.test(text)) return { text, at: (i) => i };
  const kept: number[] = [];
  let plain = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (MARK.test(ch)) continue;
    kept.push(i);
    plain += ch;
  }
  kept.push(text.length);
  return { text: plain, at: (i) => kept[Math.min(i, kept.length - 1)] ?? text.length };
}
