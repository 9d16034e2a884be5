/**
 * OCR throughput for `npm run bench` (alone: `node bench/ocr.ts`): the fixture scans (test/fixtures/scans,
 * 300 dpi) read one after another by the process's Tesseract worker (the document path's readPage: the
 * Hebrew model first), after one warm-up page that starts the worker. Prints pages per second and the peak
 * RSS growth per page over the process before the engine started (the worker thread's WASM heap included),
 * against the baseline of the same pages decoded and re-encoded as PNG (what every page costs before OCR).
 */
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { encodePng } from '../src/documents/ocr/raster.ts';
import { TesseractEngine } from '../src/documents/ocr/tesseract.ts';
import { readPage } from '../src/documents/ocr_job.ts';
import { grayOfPng } from '../test/harness/scans.ts';

const PAGES = Number(process.env.BENCH_OCR_PAGES ?? 6);

export async function runOcrBench(): Promise<Record<string, string>> {
  const scans = await Promise.all(
    ['scan-a.png', 'scan-b.png'].map(
      async (f) => new Uint8Array(await readFile(new URL(`../test/fixtures/scans/${f}`, import.meta.url))),
    ),
  );
  const rssBefore = process.memoryUsage().rss;
  const t0 = performance.now();
  for (let i = 0; i < PAGES; i++) {
    const scan = scans[i % scans.length] ?? new Uint8Array();
    encodePng(grayOfPng(scan));
  }
  const baselineMs = (performance.now() - t0) / PAGES;
  const engine = new TesseractEngine();
  let peak = rssBefore;
  try {
    await readPage(engine, scans[0] ?? new Uint8Array());
    const started = performance.now();
    for (let i = 0; i < PAGES; i++) {
      await readPage(engine, scans[i % scans.length] ?? new Uint8Array());
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    const msPerPage = (performance.now() - started) / PAGES;
    const pagesPerS = 1000 / msPerPage;
    const mibPerPage = (peak - rssBefore) / 2 ** 20;
    console.log(
      `ocr: ${pagesPerS.toFixed(2)} pages/s (${Math.round(msPerPage)} ms a page; decoding alone ${baselineMs.toFixed(1)} ms, ` +
        `ratio ${(msPerPage / Math.max(0.01, baselineMs)).toFixed(0)}×), peak RSS +${Math.round(mibPerPage)} MiB over the idle process`,
    );
    return { ocr_pages_per_s: pagesPerS.toFixed(2), ocr_peak_rss_mib: String(Math.round(mibPerPage)) };
  } finally {
    await engine.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await runOcrBench();
  console.log(
    `bench: ${Object.entries(figures)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
}
