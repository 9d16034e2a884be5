// What library_metadata_extract and citation_extract share (docs/contract.md "Extraction"): the target (one
// document, a case's documents, or every document of a corpus not yet read at the extractor's version, up to
// 100 a call), one job per document in the tool's transaction, wait_ms, and the summary once done.
import type * as z from 'zod';
import type { ToolContext } from '../contract/define.ts';
import { ok } from '../contract/envelope.ts';
import { invalidArg } from '../contract/errors.ts';
import type { DocumentRow } from '../db/schema/documents.ts';
import type { Db } from '../db/types.ts';
import type { Extractor } from '../extractors/framework.ts';
import {
  type ExtractionTargets,
  extractionNext,
  extractionTargets,
  MAX_EXTRACT_DOCUMENTS,
  runExtraction,
} from '../extractors/tool.ts';
import { pendingFor } from './extractors.ts';

export interface PrecedentTarget {
  document_id?: string | undefined;
  case_id?: string | undefined;
  /** Every document of these corpora not yet read at this version. */
  pending?: readonly DocumentRow['corpus'][] | undefined;
  wait_ms?: number | undefined;
}

export interface PrecedentExtract<S extends z.ZodType> {
  extractor: Extractor;
  what: string;
  readTool: string;
  summary: S;
  summarize(db: Db, documentIds: readonly string[]): Promise<z.input<S>>;
  done(summary: z.input<S>, documents: number): string;
}

export async function precedentExtract<S extends z.ZodType>(
  ctx: ToolContext,
  spec: PrecedentExtract<S>,
  target: PrecedentTarget,
) {
  const given = [target.document_id, target.case_id, target.pending].filter((t) => t !== undefined).length;
  if (given !== 1)
    throw invalidArg('document_id', 'give exactly one target: document_id, or the pending ones');
  let targets: ExtractionTargets;
  if (target.pending !== undefined) {
    const docs = await pendingFor(ctx.db, spec.extractor, target.pending, MAX_EXTRACT_DOCUMENTS);
    targets = { documents: docs, skipped: [] };
  } else {
    targets = await extractionTargets(ctx, spec.extractor, target, spec.what);
  }
  const run = await runExtraction(ctx, spec.extractor, targets.documents, target.wait_ms ?? 0);
  const failed = run.jobs.some((j) => j.state === 'dead');
  const ids = targets.documents.map((d) => d.id);
  const summary = run.done ? await spec.summarize(ctx.db, ids) : null;
  const data = {
    jobs: run.jobs,
    skipped: targets.skipped,
    done: run.done,
    summary,
    next:
      ids.length === 0
        ? 'Nothing pending: every document was read at this version.'
        : extractionNext(ctx, { done: run.done, failed, readTool: spec.readTool }),
  };
  const message =
    summary !== null
      ? spec.done(summary, ids.length)
      : `Queued ${run.jobs.length} job(s); ${spec.readTool} shows the results once they are done`;
  return ok(data, message);
}

export const waitKey = {
  describe: 'the target (asking again queues nothing new)',
  of: (i: Record<string, unknown>) =>
    ['document_id', 'case_id', 'all_pending', 'corpus'].map((k) => String(i[k] ?? '-')).join(':'),
};
