// What this server offers, composed for the runtime entries: the tools (functions/index.ts) and the job
// handlers that drains run. src/ never imports these; the entries pass them to createChambers.
import { toolList } from '../functions/index.ts';
import { analysisFollowUp } from '../src/analysis/extractors.ts';
import { DOCUMENT_EXTRACT, documentExtractJob, type FollowUp } from '../src/documents/extract_job.ts';
import { lazyOcrEngine, type OcrEngine } from '../src/documents/ocr/engine.ts';
import { DOCUMENT_OCR_PAGE, documentOcrPageJob } from '../src/documents/ocr_job.ts';
import type { PageReader } from '../src/documents/reader.ts';
import { DRAFT_EXPORT, draftExportJob } from '../src/drafting/export_job.ts';
import { allExtractors, documentExtractors } from '../src/extractors/all.ts';
import { type ExtractorFinder, extractorFollowUp, extractorJob } from '../src/extractors/framework.ts';
import type { JobHandler } from '../src/jobs/queue.ts';
import { precedentsFollowUp } from '../src/precedents/extractors.ts';

export const tools = toolList;

/**
 * The work queued for a document once its text exists, in that transaction: a case document's role is
 * detected (when none was given) and the analysis extractors that read it are queued (references, claims,
 * appraisers' facts); a library or internal document's metadata is read, and any decision's or case document's
 * citations (resolving earlier citations of its number); a library or internal document's candidate holdings are
 * found, and a style example is cut into the parts of a decision.
 */
const followUps: readonly FollowUp[] = [
  analysisFollowUp,
  precedentsFollowUp,
  ...documentExtractors.map(extractorFollowUp),
];

/** The process's OCR engine (entry/node.ts closes it at shutdown). */
export const ocrEngine = lazyOcrEngine('tesseract', async () =>
  (await import('../src/documents/ocr/tesseract.ts')).processOcrEngine(),
);

/**
 * The production job handlers, by kind: listed explicitly (no discovery). A kind without a handler here is
 * never claimed, so its jobs wait (visible in extraction_status) until a release that handles it. `reader`
 * is where documents are parsed: the Node entry passes its pool of reader threads; by default in-line (the
 * extraction Worker, which serves no agent, and the test harness). `ocr` gives the engine that reads scanned
 * pages (Tesseract in this process by default). `finder` runs the extractors' rules (the Node entry passes the
 * same pool); by default on the job's thread, before its transaction.
 */
export function makeJobHandlers(
  options: { reader?: PageReader; ocr?: () => OcrEngine; finder?: ExtractorFinder } = {},
): Readonly<Record<string, JobHandler>> {
  const ocr = options.ocr ?? (() => ocrEngine);
  return {
    [DOCUMENT_EXTRACT]: documentExtractJob(
      followUps,
      options.reader === undefined ? {} : { reader: options.reader },
    ),
    // Scanned pages: Tesseract in this process by default (one worker thread for every page), loaded on the
    // first scan; the entry may name another engine (OCR_ENGINE, src/documents/ocr/configured.ts).
    // Its page images are decoded where `reader` runs (the reader threads on Node).
    [DOCUMENT_OCR_PAGE]: documentOcrPageJob(
      ocr,
      followUps,
      options.reader === undefined ? {} : { reader: options.reader },
    ),
    // The extractors' rules run where `finder` says (the reader threads on Node), their writes here.
    ...Object.fromEntries(allExtractors.map((e) => [e.kind, extractorJob(e, options.finder)])),
    [DRAFT_EXPORT]: draftExportJob,
  };
}

/** The handlers reading in-line (see makeJobHandlers). */
export const jobHandlers = makeJobHandlers();
