import { DOCUMENT_EXTRACT, documentExtractHandler } from '../extract/document_job.ts';
import type { JobHandler } from './queue.ts';

/**
 * The production job handlers, by kind: listed explicitly (no discovery). A kind without a handler here is
 * never claimed, so its jobs wait (visible in extraction_status) until a release that handles it.
 */
export const jobHandlers: Readonly<Record<string, JobHandler>> = {
  [DOCUMENT_EXTRACT]: documentExtractHandler,
};
