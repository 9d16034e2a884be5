// What this server offers, composed for the runtime entries: the tools (functions/index.ts) and the job
// handlers that drains run. src/ never imports these; the entries pass them to createChambers.
import { toolList } from '../functions/index.ts';
import { analysisExtractors, analysisFollowUp } from '../src/analysis/extractors.ts';
import { DOCUMENT_EXTRACT, documentExtractJob, type FollowUp } from '../src/documents/extract_job.ts';
import { DRAFT_EXPORT, draftExportJob } from '../src/drafting/export_job.ts';
import { extractorJob } from '../src/extractors/framework.ts';
import type { JobHandler } from '../src/jobs/queue.ts';

export const tools = toolList;

/**
 * The work queued for a document once its text exists, in that transaction: a case document's role is
 * detected (when none was given) and the analysis extractors that read it are queued (references, claims,
 * appraisers' facts).
 */
const followUps: readonly FollowUp[] = [analysisFollowUp];

/**
 * The production job handlers, by kind: listed explicitly (no discovery). A kind without a handler here is
 * never claimed, so its jobs wait (visible in extraction_status) until a release that handles it.
 */
export const jobHandlers: Readonly<Record<string, JobHandler>> = {
  [DOCUMENT_EXTRACT]: documentExtractJob(followUps),
  ...Object.fromEntries(analysisExtractors.map((e) => [e.kind, extractorJob(e)])),
  [DRAFT_EXPORT]: draftExportJob,
};
