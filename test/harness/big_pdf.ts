// A long PDF made from a short one: the pages of a fixture PDF (text drawn with a Hebrew font) copied over
// and over with pdf-lib, each stamped with its number, for suites and benches that need a document that
// takes a while to read.
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { fixtureBytes, fixturePages } from '../fixtures/hebrew/corpus.ts';

/** The fixture whose pages are repeated (three pages of an appeal). */
export const BIG_PDF_SOURCE = 'appeal';

/** The stamp drawn at the foot of page n (1-based); `tag` makes the bytes (and the sha256) unique. */
export const pageStamp = (n: number, tag: string) => `Chambers test page ${n} ${tag}`;

/** A PDF of `pages` pages: page n is page ((n - 1) mod k) + 1 of the fixture, with its stamp below the text. */
export async function bigPdf(pages: number, tag: string): Promise<Uint8Array> {
  const source = await PDFDocument.load(await fixtureBytes(BIG_PDF_SOURCE, 'pdf'));
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const count = source.getPageCount();
  for (let n = 1; n <= pages; n++) {
    const [page] = await pdf.copyPages(source, [(n - 1) % count]);
    if (page === undefined) throw new Error('pdf-lib copied no page');
    page.drawText(pageStamp(n, tag), { x: 56, y: 20, size: 9, font });
    pdf.addPage(page);
  }
  return pdf.save({ useObjectStreams: false });
}

/** The source text of page n of bigPdf (without its stamp). */
export async function bigPdfPageSource(): Promise<(n: number) => string> {
  const source = await fixturePages(BIG_PDF_SOURCE);
  return (n) => source[(n - 1) % source.length] ?? '';
}
