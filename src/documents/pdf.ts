import { getDocumentProxy } from 'unpdf';
import { ExtractionError } from './errors.ts';
import { MAX_EXTRACT_MS, MAX_IMAGE_PIXELS, MAX_PAGES, MAX_PDF_INFLATED_BYTES } from './media.ts';
import { isGarbageText } from './ocr/garbage.ts';
import { checkPdfStreams } from './pdf_streams.ts';
import { pageText, type TextItem } from './pdf_text.ts';
import { yieldToEventLoop } from './yield.ts';

export interface PdfOptions {
  /** The whole read, opening included; past it the document fails (`timeout`). */
  timeLimitMs?: number;
}

/** A PDF's pages: the text of each (index 0 is page 1), and the pages (1-based) that OCR must read. */
export interface PdfRead {
  pages: string[];
  /** Pages without a text layer (a scan) or with a garbage one (isGarbageText): their text is left empty here. */
  ocrPages: number[];
}

/** PDF text per page (extractPdfRead), without the OCR pages' list. */
export async function extractPdfPages(bytes: Uint8Array, options: PdfOptions = {}): Promise<string[]> {
  return (await extractPdfRead(bytes, options)).pages;
}

/**
 * PDF text per page with unpdf (pdf.js built for serverless runtimes), rebuilt from the text items'
 * positions (pdf_text.ts). Before pdf.js sees the file its streams are measured (pdf_streams.ts: no
 * decompression bombs, no giant images); the page count and the time are capped. Encrypted files (a user
 * password) and files pdf.js cannot parse fail permanently.
 */
export async function extractPdfRead(bytes: Uint8Array, options: PdfOptions = {}): Promise<PdfRead> {
  return withPdf(bytes, options, async (pdf, step) => {
    const pages: string[] = [];
    const ocrPages: number[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await step(pdf.getPage(n), n);
      const content = await step(page.getTextContent(), n);
      const text = pageText(content.items.flatMap((i): TextItem[] => ('str' in i ? [i] : [])));
      if (text.trim() === '' || isGarbageText(text)) {
        ocrPages.push(n);
        pages.push('');
      } else pages.push(text);
      page.cleanup();
      // pdf.js settles its promises without a macrotask between pages: read in-line (Workers, tests), a long
      // PDF would otherwise hold its thread from the first page to the last.
      await yieldToEventLoop();
    }
    return { pages, ocrPages };
  });
}

/** Page `n`'s largest image as PNG bytes for OCR (ocr/pdf_images.ts), or null when it paints none. */
export async function pdfPageImage(
  bytes: Uint8Array,
  n: number,
  options: PdfOptions = {},
): Promise<Uint8Array | null> {
  const { largestPageImage } = await import('./ocr/pdf_images.ts');
  return withPdf(bytes, options, async (pdf, step) => {
    if (n < 1 || n > pdf.numPages)
      throw new ExtractionError('broken', `The PDF has ${pdf.numPages} pages, not ${n}`);
    const page = await step(pdf.getPage(n), n);
    try {
      return await step(largestPageImage(page), n);
    } finally {
      page.cleanup();
    }
  });
}

type PdfProxy = Awaited<ReturnType<typeof getDocumentProxy>>;
type Step = <T>(work: Promise<T>, page: number) => Promise<T>;

/** Opens the PDF (streams measured first, caps and deadline applied) and runs `read` on it. */
async function withPdf<T>(
  bytes: Uint8Array,
  options: PdfOptions,
  read: (pdf: PdfProxy, step: Step) => Promise<T>,
): Promise<T> {
  const limitMs = options.timeLimitMs ?? MAX_EXTRACT_MS;
  const deadline = Date.now() + limitMs;
  await checkPdfStreams(bytes, {
    maxInflatedBytes: MAX_PDF_INFLATED_BYTES,
    maxImagePixels: MAX_IMAGE_PIXELS,
  });
  let pdf: PdfProxy;
  try {
    // pdf.js takes ownership of (detaches) the buffer it is given and refuses a Buffer: a plain copy.
    // verbosity 0: errors only; pdf.js's warnings would otherwise go to the console, outside our log.
    pdf = await beforeDeadline(
      getDocumentProxy(new Uint8Array(bytes), {
        stopAtErrors: true,
        verbosity: 0,
        maxImageSize: MAX_IMAGE_PIXELS,
      }),
      deadline,
      () => `opening the PDF took longer than ${limitMs / 1000} s`,
    );
  } catch (e) {
    if (e instanceof ExtractionError) throw e;
    const name = e instanceof Error ? e.name : '';
    if (name === 'PasswordException') {
      throw new ExtractionError(
        'encrypted',
        'The PDF is encrypted with a password; upload an unprotected copy',
        { cause: e },
      );
    }
    throw new ExtractionError(
      'broken',
      `The PDF cannot be read: ${e instanceof Error ? e.message : String(e)}`,
      { cause: e },
    );
  }
  try {
    if (pdf.numPages > MAX_PAGES) {
      throw new ExtractionError('too_large', `The PDF has ${pdf.numPages} pages; the limit is ${MAX_PAGES}`);
    }
    const step: Step = (work, n) =>
      beforeDeadline(
        work,
        deadline,
        () =>
          `reading the PDF took longer than ${limitMs / 1000} s (stopped at page ${n} of ${pdf.numPages})`,
      );
    return await read(pdf, step);
  } catch (e) {
    if (e instanceof ExtractionError) throw e;
    throw new ExtractionError(
      'broken',
      `The PDF's text cannot be read: ${e instanceof Error ? e.message : String(e)}`,
      { cause: e },
    );
  } finally {
    await pdf.cleanup().catch(() => {});
  }
}

/** The promise's value, or ExtractionError('timeout') once the deadline passes (pdf.js yields between slices). */
async function beforeDeadline<T>(work: Promise<T>, deadline: number, why: () => string): Promise<T> {
  const timeout = () =>
    new ExtractionError('timeout', `The PDF is too slow to read: ${why()}; try a smaller or simpler file`);
  // Work that never waits for a timer would outrun the timer below: the clock is also read between steps.
  if (Date.now() >= deadline) {
    work.catch(() => {});
    throw timeout();
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeout()), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
