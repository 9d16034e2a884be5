// What this server offers, composed for the runtime entries: the tools (functions/index.ts) and the job
// handlers that drains run. src/ never imports these; the entries pass them to createChambers.
import { toolList } from '../functions/index.ts';
import { DOCUMENT_EXTRACT, documentExtractJob, type FollowUp } from '../src/documents/extract_job.ts';
import type { JobHandler } from '../src/jobs/queue.ts';

export const tools = toolList;

/**
 * The production job handlers, by kind: listed explicitly (no discovery). A kind without a handler here is
 * never claimed, so its jobs wait (visible in extraction_status) until a release that handles it.
 */
/** The work queued for a document once its text exists (rule-based extractors), in that transaction. */
const followUps: readonly FollowUp[] = [];

export const jobHandlers: Readonly<Record<string, JobHandler>> = {
  [DOCUMENT_EXTRACT]: documentExtractJob(followUps),
};
