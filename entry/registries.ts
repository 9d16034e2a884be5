// What this server offers, composed for the runtime entries: the tools (functions/index.ts) and the job
// handlers that drains run. src/ never imports these; the entries pass them to createChambers.
import { toolList } from '../functions/index.ts';
import { analysisExtractors, analysisFollowUp } from '../src/analysis/extractors.ts';
import { DOCUMENT_EXTRACT, documentExtractJob, type FollowUp } from '../src/documents/extract_job.ts';
import type { PageReader } from '../src/documents/reader.ts';
import { DRAFT_EXPORT, draftExportJob } from '../src/drafting/export_job.ts';
import { type Extractor, extractorFollowUp, extractorJob } from '../src/extractors/framework.ts';
import { holdingExtractor } from '../src/halacha/extractor.ts';
import type { JobHandler } from '../src/jobs/queue.ts';
import { precedentExtractors, precedentsFollowUp } from '../src/precedents/extractors.ts';
import { styleExtractor } from '../src/style/extractor.ts';

export const tools = toolList;

/**
 * The work queued for a document once its text exists, in that transaction: a case document's role is
 * detected (when none was given) and the analysis extractors that read it are queued (references, claims,
 * appraisers' facts); a library or internal document's metadata is read, and any decision's or case document's
 * citations (resolving earlier citations of its number); a library or internal document's candidate holdings are
 * found, and a style example is cut into the parts of a decision.
 */
const documentExtractors: readonly Extractor[] = [holdingExtractor, styleExtractor];
const followUps: readonly FollowUp[] = [
  analysisFollowUp,
  precedentsFollowUp,
  ...documentExtractors.map(extractorFollowUp),
];

/**
 * The production job handlers, by kind: listed explicitly (no discovery). A kind without a handler here is
 * never claimed, so its jobs wait (visible in extraction_status) until a release that handles it. `reader`
 * is where documents are parsed: the Node entry passes its pool of reader threads; by default in-line (the
 * extraction Worker, which serves no agent, and the test harness).
 */
export function makeJobHandlers(options: { reader?: PageReader } = {}): Readonly<Record<string, JobHandler>> {
  return {
    [DOCUMENT_EXTRACT]: documentExtractJob(followUps, options),
    ...Object.fromEntries(
      [...analysisExtractors, ...precedentExtractors, ...documentExtractors].map((e) => [
        e.kind,
        extractorJob(e),
      ]),
    ),
    [DRAFT_EXPORT]: draftExportJob,
  };
}

/** The handlers reading in-line (see makeJobHandlers). */
export const jobHandlers = makeJobHandlers();
