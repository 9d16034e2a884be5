// `npm run eval:ocr`: the character error rate of OCR on our own Hebrew fixtures, scanned two ways.
// Each text (test/fixtures/scans/*.txt, and the appraisal fixture test/fixtures/hebrew/appraisal.txt, all our
// own words) is rendered by LibreOffice to PDF (scripts/fixtures/make_scans.ts) and rasterised by poppler:
// - clean: 300 dpi grayscale, wrapped in an image-only PDF and read through the document path (pdf.js gives
//   the page's image, Tesseract reads it);
// - noisy: 200 dpi, a 1° skew, gray noise and JPEG compression (quality 60), read as a JPEG.
// The error rate is the edit distance between the OCR text and the source over the source's length, both
// with whitespace collapsed, quote and dash forms unified and niqqud removed (normaliseOcrText). Goals: ≤ 2%
// clean, ≤ 5% noisy. Needs soffice and pdftoppm (CI installs them); exits 1 when a goal is missed.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { normaliseOcrText } from '../../src/documents/ocr/normalise.ts';
import { TesseractEngine } from '../../src/documents/ocr/tesseract.ts';
import { readPage } from '../../src/documents/ocr_job.ts';
import { pdfPageImage } from '../../src/documents/pdf.ts';
import { degrade, grayOfPng, imagePdf, jpegOf } from '../../test/harness/scans.ts';
import { renderScan } from '../fixtures/make_scans.ts';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const SOURCES = process.env.EVAL_OCR_ONLY
  ? [process.env.EVAL_OCR_ONLY]
  : [
      here('../../test/fixtures/scans/scan-a.txt'),
      here('../../test/fixtures/scans/scan-b.txt'),
      here('../../test/fixtures/hebrew/appraisal.txt'),
    ];
const GOALS = { clean: 0.02, noisy: 0.05 };

/** Text as compared: OCR's normalisation, then one space for any whitespace, one form of each quote mark. */
export function comparable(text: string): string {
  return normaliseOcrText(text)
    .replace(/[״“”„]/g, '"')
    .replace(/[׳‘’`]/g, "'")
    .replace(/[\u05be\u2010\u2011]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Levenshtein distance over code points (two rows). */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      row[j] = Math.min(
        (prev[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (prev[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
    }
    prev = row;
  }
  return prev[y.length] ?? 0;
}

export const cer = (ocr: string, source: string) =>
  editDistance(comparable(ocr), comparable(source)) / Math.max(1, [...comparable(source)].length);

const engine = new TesseractEngine();
const work = await mkdtemp(join(tmpdir(), 'eval-ocr-'));
const totals = { clean: { errors: 0, chars: 0 }, noisy: { errors: 0, chars: 0 } };
let pages = 0;
let ocrMs = 0;
let peakRss = process.memoryUsage().rss;
const read = async (image: Uint8Array) => {
  const t = performance.now();
  const r = await readPage(engine, image);
  ocrMs += performance.now() - t;
  pages++;
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  return r;
};
try {
  for (const file of SOURCES) {
    const source = await readFile(file, 'utf8');
    const lines = source.split('\n').filter((l) => l.trim() !== '');
    const name = file.split('/').pop();
    // One page each: the fixtures are written to fit a page; a longer one is measured on its first page's lines.
    const clean = await renderScan(lines, 300, work);
    const pdf = await imagePdf([PNG.sync.write(clean, { colorType: 0 })]);
    const image = await pdfPageImage(pdf, 1);
    if (image === null) throw new Error('the image-only PDF gave no image');
    const c = await read(image);
    const low = grayOfPng(PNG.sync.write(await renderScan(lines, 200, work)));
    const noisy = jpegOf(degrade(low, { scale: 1, degrees: 1, noise: 40, seed: 3 }), 60);
    const n = await read(noisy);
    // The reference is what fits on the rendered page: the whole text for our short fixtures; for a text longer
    // than a page, the OCR of the clean page decides where the page ends (its last source line read).
    const reference = comparable(source);
    for (const [kind, r] of [
      ['clean', c],
      ['noisy', n],
    ] as const) {
      const errors = editDistance(comparable(r.text), reference);
      totals[kind].errors += errors;
      totals[kind].chars += [...reference].length;
      if (process.env.EVAL_OCR_VERBOSE) console.log(`--- ${name} ${kind}\n${r.text}\n---`);
      console.log(
        `${name} ${kind}: CER ${((100 * errors) / [...reference].length).toFixed(2)}% (confidence ${r.confidence.toFixed(2)})`,
      );
    }
  }
} finally {
  await engine.close();
  await rm(work, { recursive: true, force: true });
}
const rate = (k: 'clean' | 'noisy') => totals[k].errors / Math.max(1, totals[k].chars);
console.log(
  `eval:ocr clean_300dpi_cer=${(100 * rate('clean')).toFixed(2)}% noisy_200dpi_cer=${(100 * rate('noisy')).toFixed(2)}% ` +
    `pages=${pages} ms_per_page=${Math.round(ocrMs / pages)} peak_rss_mib=${Math.round(peakRss / 2 ** 20)}`,
);
if (rate('clean') > GOALS.clean || rate('noisy') > GOALS.noisy) {
  console.error(`eval:ocr: a goal is missed (clean ≤ ${GOALS.clean * 100}%, noisy ≤ ${GOALS.noisy * 100}%)`);
  process.exit(1);
}
