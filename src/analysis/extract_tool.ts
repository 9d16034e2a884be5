// What reference_extract, claim_extract and appraiser_fact_extract share (docs/contract.md "Extraction"): the
// target (one document or a case's documents, reachable first), roles detected where none is known, one job
// per document in the tool's transaction, wait_ms, and the summary once the jobs are done.
import * as z from 'zod';
import { loadLiveCase } from '../cases/live.ts';
import type { ToolContext } from '../contract/define.ts';
import { ok } from '../contract/envelope.ts';
import { invalidArg } from '../contract/errors.ts';
import type { DocumentRole } from '../db/schema/documents.ts';
import type { Db } from '../db/types.ts';
import { loadDocument } from '../documents/views.ts';
import type { Extractor } from '../extractors/framework.ts';
import { extractionNext, extractionTargets, runExtraction, waitMsInput } from '../extractors/tool.ts';
import { detectMissingRoles, ensureRole } from './extractors.ts';

export const extractInput = {
  document_id: z.uuid().optional().describe('One case document'),
  case_id: z.uuid().optional().describe('Or all of this case’s'),
  wait_ms: waitMsInput.describe('Wait this long (ms, ≤ 10000) for the result'),
};

export const extractKey = {
  describe: 'document_id or case_id (asking again queues nothing new)',
  of: (i: { document_id?: string | undefined; case_id?: string | undefined }) =>
    `${i.document_id ?? '-'}:${i.case_id ?? '-'}`,
};

export interface AnalysisExtract<S extends z.ZodType> {
  extractor: Extractor;
  /** What it reads, in words ("appeals, responses and decisions"). */
  what: string;
  /** The roles it reads; null: every case document. */
  roles: readonly DocumentRole[] | null;
  readTool: string;
  summary: S;
  summarize(db: Db, documentIds: readonly string[]): Promise<z.input<S>>;
  /** The message once done, from the summary. */
  done(summary: z.input<S>, documents: number): string;
}

/** Runs one `*_extract` call of the analysis family. */
export async function analysisExtract<S extends z.ZodType>(
  ctx: ToolContext,
  spec: AnalysisExtract<S>,
  input: { document_id?: string | undefined; case_id?: string | undefined; wait_ms?: number | undefined },
) {
  if ((input.document_id === undefined) === (input.case_id === undefined)) {
    throw invalidArg('document_id', 'give document_id or case_id, exactly one');
  }
  // Reachability first (C7): nothing is written for a deleted case or an unreachable document.
  if (input.document_id !== undefined) {
    const doc = await loadDocument(ctx.db, input.document_id);
    if (doc.corpus === 'case' && doc.status === 'ready' && doc.role === null) {
      await ctx.db.transaction((tx) => ensureRole(tx, doc));
    }
    if (doc.corpus === 'case' && doc.role !== null && spec.roles !== null && !spec.roles.includes(doc.role)) {
      const fix = ctx.holds('document_update') ? 'document_update sets it' : 'the analyst can set it';
      throw invalidArg(
        'document_id',
        `${spec.extractor.kind} reads ${spec.what}; this document's role is ${doc.role}`,
        `If that role is wrong, ${fix}; otherwise give case_id to read every document it applies to.`,
      );
    }
  } else {
    const caseId = input.case_id as string;
    await loadLiveCase(ctx.db, caseId);
    await ctx.db.transaction((tx) => detectMissingRoles(tx, { caseId }));
  }
  const targets = await extractionTargets(ctx, spec.extractor, input, spec.what);
  const run = await runExtraction(ctx, spec.extractor, targets.documents, input.wait_ms ?? 0);
  const failed = run.jobs.some((j) => j.state === 'dead');
  const ids = targets.documents.map((d) => d.id);
  const summary = run.done ? await spec.summarize(ctx.db, ids) : null;
  const data = {
    jobs: run.jobs,
    skipped: targets.skipped,
    done: run.done,
    summary,
    next: extractionNext(ctx, { done: run.done, failed, readTool: spec.readTool }),
  };
  const message =
    summary !== null
      ? spec.done(summary, ids.length)
      : `Queued ${run.jobs.length} job(s); ${spec.readTool} shows the results once they are done`;
  return ok(data, message);
}
