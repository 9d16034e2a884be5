import { normalizeHebrew } from '../hebrew/text.ts';
import { indexTerms } from './normalize.ts';

/** Chunk bounds (characters of the original text): small enough for a precise hit, large enough for context. */
export const CHUNK_TARGET_CHARS = 900;
/** Text repeated at the start of the next chunk, so a phrase cut by a boundary is still found whole. */
export const CHUNK_OVERLAP_CHARS = 150;

export interface Chunk {
  page: number;
  /** 0-based across the whole document, in page order. */
  chunkIndex: number;
  text: string;
  normText: string;
  terms: string;
}

/**
 * Splits one page into chunks of at most CHUNK_TARGET_CHARS (a single longer word stands alone), cut at
 * whitespace, each overlapping the previous one by up to CHUNK_OVERLAP_CHARS. Blank pages give no chunk.
 */
export function chunkPage(text: string): string[] {
  const words = text.split(/\s+/).filter((w) => w !== '');
  const chunks: string[] = [];
  let start = 0;
  while (start < words.length) {
    let end = start;
    let length = 0;
    while (
      end < words.length &&
      (end === start || length + 1 + (words[end] as string).length <= CHUNK_TARGET_CHARS)
    ) {
      length += (end === start ? 0 : 1) + (words[end] as string).length;
      end++;
    }
    chunks.push(words.slice(start, end).join(' '));
    if (end >= words.length) break;
    // Step back over the overlap, always moving forward by at least one word.
    let back = end;
    let overlap = 0;
    while (back - 1 > start && overlap + (words[back - 1] as string).length + 1 <= CHUNK_OVERLAP_CHARS) {
      back--;
      overlap += (words[back] as string).length + 1;
    }
    start = back;
  }
  return chunks;
}

/** Chunks every page (1-based page numbers kept); a chunk never crosses a page. */
export function chunkPages(pages: readonly string[]): Chunk[] {
  const out: Chunk[] = [];
  pages.forEach((pageText, i) => {
    for (const text of chunkPage(pageText)) {
      const normText = normalizeHebrew(text);
      out.push({ page: i + 1, chunkIndex: out.length, text, normText, terms: indexTerms(normText, text) });
    }
  });
  return out;
}
