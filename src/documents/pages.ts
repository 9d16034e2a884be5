import type { DocumentMediaType } from '../db/schema/documents.ts';
import { ExtractionError } from './errors.ts';
import { MAX_PAGES, MAX_TEXT_CHARS } from './media.ts';

/**
 * Plain text and Markdown: a form feed (U+000C) separates pages, as in text exported page by page;
 * without one the text is one page. A BOM is dropped; line endings become \n.
 */
export function extractTextPages(bytes: Uint8Array): string[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (e) {
    throw new ExtractionError('broken', 'The text is not valid UTF-8', { cause: e });
  }
  return text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\f');
}

/** The text of each page (index 0 is page 1), by media type; throws ExtractionError (permanent) on bad bytes. */
export async function extractPages(bytes: Uint8Array, mediaType: DocumentMediaType): Promise<string[]> {
  let pages: string[];
  switch (mediaType) {
    // The PDF and Word readers are loaded on first use: they are most of what `npm start` would load.
    case 'application/pdf':
      pages = await (await import('./pdf.ts')).extractPdfPages(bytes);
      break;
    case 'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
      pages = await (await import('./docx.ts')).extractDocxPages(bytes);
      break;
    case 'text/plain':
    case 'text/markdown':
      pages = extractTextPages(bytes);
      break;
  }
  // Trailing blank pages (a final form feed or page break) are not pages of the document.
  while (pages.length > 1 && (pages.at(-1) ?? '').trim() === '') pages.pop();
  pages = pages.map((p) => p.replace(/[ \t]+\n/g, '\n').trim());
  if (pages.length > MAX_PAGES) {
    throw new ExtractionError(
      'too_large',
      `The document has ${pages.length} pages; the limit is ${MAX_PAGES}`,
    );
  }
  const chars = pages.reduce((n, p) => n + p.length, 0);
  if (chars > MAX_TEXT_CHARS) {
    throw new ExtractionError(
      'too_large',
      `The document has ${chars} characters of text; the limit is ${MAX_TEXT_CHARS}`,
    );
  }
  if (chars === 0) {
    throw new ExtractionError(
      'no_text',
      'The document has no extractable text (a scanned PDF without a text layer?); OCR is not supported',
    );
  }
  return pages;
}
