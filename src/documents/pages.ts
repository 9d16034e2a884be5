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

/** A document's pages as read from its file, and the pages (1-based) that OCR must read. */
export interface DocumentRead {
  /** Index 0 is page 1; a page waiting for OCR is empty. */
  pages: string[];
  ocrPages: number[];
}

/** The text of each page (index 0 is page 1), by media type, without OCR (readPages, its pages only). */
export async function extractPages(bytes: Uint8Array, mediaType: DocumentMediaType): Promise<string[]> {
  return (await readPages(bytes, mediaType)).pages;
}

/**
 * The text of each page by media type, and the pages OCR must read: every page of an image (PNG, JPEG, a
 * TIFF's pages) and a PDF's pages without a text layer or with a garbage one. Throws ExtractionError
 * (permanent) on bad bytes, and `no_text` when there is no text and nothing for OCR to read.
 */
export async function readPages(bytes: Uint8Array, mediaType: DocumentMediaType): Promise<DocumentRead> {
  let pages: string[];
  let ocrPages: number[] = [];
  switch (mediaType) {
    // The PDF, Word and image readers are loaded on first use: they are most of what `npm start` would load.
    case 'application/pdf':
      ({ pages, ocrPages } = await (await import('./pdf.ts')).extractPdfRead(bytes));
      break;
    case 'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
      pages = await (await import('./docx.ts')).extractDocxPages(bytes);
      break;
    case 'text/plain':
    case 'text/markdown':
      pages = extractTextPages(bytes);
      break;
    case 'image/png':
    case 'image/jpeg':
    case 'image/tiff': {
      const n = await (await import('./ocr/images.ts')).imagePageCount(bytes, mediaType);
      pages = Array.from({ length: n }, () => '');
      ocrPages = pages.map((_, i) => i + 1);
      break;
    }
  }
  // Trailing blank pages (a final form feed or page break) are not pages of the document; a page OCR is
  // to read is not blank.
  while (pages.length > 1 && (pages.at(-1) ?? '').trim() === '' && !ocrPages.includes(pages.length)) {
    pages.pop();
  }
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
  if (chars === 0 && ocrPages.length === 0) {
    throw new ExtractionError('no_text', 'The document has no text: its pages are empty');
  }
  return { pages, ocrPages };
}

/**
 * Page `page` (1-based) of a document as an image for OCR: a PDF page's largest image, an image document's
 * page; null when the page paints none (a blank page). Decoding and re-encoding are CPU work: on Node the
 * reader threads run it (reader_pool.ts), never the agents' thread.
 */
export async function readPageImage(
  bytes: Uint8Array,
  mediaType: DocumentMediaType,
  page: number,
): Promise<Uint8Array | null> {
  if (mediaType === 'application/pdf') return (await import('./pdf.ts')).pdfPageImage(bytes, page);
  const images = await import('./ocr/images.ts');
  if (!images.isImageMediaType(mediaType))
    throw new ExtractionError('broken', `${mediaType} has no page images`);
  return images.imagePageForOcr(bytes, mediaType, page);
}
