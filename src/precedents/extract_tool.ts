// What library_metadata_extract and citation_extract share (docs/contract.md "Extraction"): the target (one
// document, a case's documents, or every document of a corpus not yet read at the extractor's version, up to
// 100 a call), the idempotency key, and the next step when nothing was pending.
import type { ToolContext } from '../contract/define.ts';
import { invalidArg } from '../contract/errors.ts';
import type { DocumentRow } from '../db/schema/documents.ts';
import type { ExtractRun } from '../extractors/extract_tool.ts';
import type { Extractor } from '../extractors/framework.ts';
import { type ExtractionTargets, extractionTargets, MAX_EXTRACT_DOCUMENTS } from '../extractors/tool.ts';
import { pendingFor } from './extractors.ts';

export interface PrecedentTarget {
  document_id?: string | undefined;
  case_id?: string | undefined;
  /** Every document of these corpora not yet read at this version. */
  pending?: readonly DocumentRow['corpus'][] | undefined;
}

/** The documents of exactly one target: a document, a case's, or the pending ones of some corpora. */
export async function precedentTargets(
  ctx: ToolContext,
  extractor: Extractor,
  what: string,
  target: PrecedentTarget,
): Promise<ExtractionTargets> {
  const given = [target.document_id, target.case_id, target.pending].filter((t) => t !== undefined).length;
  if (given !== 1)
    throw invalidArg('document_id', 'give exactly one target: document_id, or the pending ones');
  if (target.pending !== undefined) {
    const docs = await pendingFor(ctx.db, extractor, target.pending, MAX_EXTRACT_DOCUMENTS);
    return { documents: docs, skipped: [] };
  }
  return extractionTargets(ctx, extractor, target, what);
}

/** The next step of a call that found nothing pending; the common one otherwise. */
export const nothingPending = (_ctx: ToolContext, run: ExtractRun) =>
  run.documents === 0 ? 'Nothing pending: every document was read at this version.' : undefined;

export const waitKey = {
  describe: 'the target (asking again queues nothing new)',
  of: (i: Record<string, unknown>) =>
    ['document_id', 'case_id', 'all_pending', 'corpus'].map((k) => String(i[k] ?? '-')).join(':'),
};
