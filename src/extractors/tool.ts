// The `*_extract` tools' side of the extractors: which documents a call targets, queueing one job per
// document in the tool's transaction, and waiting up to wait_ms for the caller's own jobs
// (docs/contract.md "Extraction").

import * as z from 'zod';
import { loadLiveCase } from '../cases/live.ts';
import type { ToolContext } from '../contract/define.ts';
import { invalidArg, ToolError } from '../contract/errors.ts';
import { and, eq, inArray } from '../db/orm.ts';
import { type DocumentRow, documents } from '../db/schema/documents.ts';
import { jobs } from '../db/schema/jobs.ts';
import { liveDocument, loadDocument, requireReady } from '../documents/views.ts';
import { type Extractor, enqueueExtractor } from './framework.ts';

/** At most this many documents in one call (a case has a handful; a corpus-wide run is paged by the caller). */
export const MAX_EXTRACT_DOCUMENTS = 100;
export const MAX_WAIT_MS = 10_000;

export const waitMsInput = z
  .int()
  .min(0)
  .max(MAX_WAIT_MS)
  .optional()
  .describe(
    `Wait up to this many ms for the work and get its result now (default 0, at most ${MAX_WAIT_MS})`,
  );

const jobOutput = z.object({
  job_id: z.uuid(),
  document_id: z.uuid(),
  state: z.string().describe('pending, running, failed (retry scheduled), dead or succeeded'),
  error: z.string().nullable().describe('The last error, when an attempt failed'),
});

/** The output of an `*_extract` tool: its jobs, whether they finished in time, and the summary once they did. */
export function extractionOutput<S extends z.ZodType>(summary: S) {
  return z.object({
    jobs: z.array(jobOutput).max(MAX_EXTRACT_DOCUMENTS),
    skipped: z
      .array(z.object({ document_id: z.uuid(), status: z.string() }))
      .max(MAX_EXTRACT_DOCUMENTS)
      .describe('Documents of the case left out: their text is not extracted (yet)'),
    done: z.boolean().describe('Every job finished within wait_ms'),
    summary: summary.nullable().describe('What was found, once done'),
    next: z.string().describe('What to do next'),
  });
}

export interface ExtractionTargets {
  documents: DocumentRow[];
  skipped: { document_id: string; status: string }[];
}

/**
 * The documents a call targets: one document (reachable, of a kind the extractor reads, and ready: else
 * invalid_args / invalid_state with a hint), or every document of a live case that the extractor reads (those
 * not ready yet are skipped and listed).
 */
export async function extractionTargets(
  ctx: ToolContext,
  extractor: Extractor,
  target: { document_id?: string | undefined; case_id?: string | undefined },
  what: string,
): Promise<ExtractionTargets> {
  if ((target.document_id === undefined) === (target.case_id === undefined)) {
    throw invalidArg('document_id', 'give document_id or case_id, exactly one');
  }
  if (target.document_id !== undefined) {
    const doc = await loadDocument(ctx.db, target.document_id);
    if (!extractor.accepts(doc)) {
      throw invalidArg('document_id', `${extractor.kind} reads ${what}; this is a ${doc.corpus} document`);
    }
    requireReady(
      doc,
      doc.status === 'failed'
        ? 'Its text extraction failed: document_extract reads it again; document_delete removes it.'
        : 'Wait until extraction_status shows the document ready, then call again.',
    );
    return { documents: [doc], skipped: [] };
  }
  const caseId = target.case_id as string;
  await loadLiveCase(ctx.db, caseId);
  const rows = await ctx.db
    .select()
    .from(documents)
    .where(and(eq(documents.caseId, caseId), liveDocument))
    .orderBy(documents.createdAt, documents.id)
    .limit(MAX_EXTRACT_DOCUMENTS + 1);
  const accepted = rows.slice(0, MAX_EXTRACT_DOCUMENTS).filter((d) => extractor.accepts(d));
  const ready = accepted.filter((d) => d.status === 'ready');
  const skipped = accepted
    .filter((d) => d.status !== 'ready')
    .map((d) => ({ document_id: d.id, status: d.status }));
  if (ready.length === 0) {
    throw new ToolError('invalid_state', `The case has no ${what} with extracted text`, {
      details: { case_id: caseId, skipped },
      hint:
        skipped.length > 0
          ? 'Wait until extraction_status shows its documents ready, then call again.'
          : `Upload the case's ${what} first.`,
    });
  }
  return { documents: ready, skipped };
}

export interface JobState {
  job_id: string;
  document_id: string;
  state: string;
  error: string | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The caller's jobs as extraction_status names their states ("failed" = retry scheduled). */
async function jobStates(ctx: ToolContext, ids: readonly string[]): Promise<JobState[]> {
  if (ids.length === 0) return [];
  const rows = await ctx.db
    .select({ id: jobs.id, state: jobs.state, lastError: jobs.lastError, payload: jobs.payload })
    .from(jobs)
    .where(inArray(jobs.id, [...ids]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (r === undefined) return [];
    return [
      {
        job_id: r.id,
        document_id: String(r.payload.document_id),
        state: r.state === 'pending' && r.lastError !== null ? 'failed' : r.state,
        error: r.lastError,
      },
    ];
  });
}

const finished = (s: JobState) => s.state === 'succeeded' || s.state === 'dead';

/**
 * Queues the extractor for each document in one transaction, kicks the drain, and waits up to `waitMs` for
 * these jobs, helping by draining their kind itself (a job another worker holds is waited for).
 */
export async function runExtraction(
  ctx: ToolContext,
  extractor: Extractor,
  targets: readonly DocumentRow[],
  waitMs: number,
): Promise<{ jobs: JobState[]; done: boolean }> {
  const ids = await ctx.db.transaction(async (tx) => {
    const out: string[] = [];
    for (const doc of targets) out.push((await enqueueExtractor(tx, extractor, doc.id)).id);
    return out;
  });
  ctx.jobs.kick();
  const deadline = Date.now() + Math.min(Math.max(0, waitMs), MAX_WAIT_MS);
  let states = await jobStates(ctx, ids);
  while (!states.every(finished) && Date.now() < deadline) {
    const report = ctx.jobs.kinds.includes(extractor.kind)
      ? await ctx.jobs.drain({ kinds: [extractor.kind], maxJobs: ids.length })
      : { claimed: 0 };
    if (report.claimed === 0) await sleep(Math.max(0, Math.min(50, deadline - Date.now())));
    states = await jobStates(ctx, ids);
  }
  return { jobs: states, done: states.every(finished) };
}

/** The next step after an extraction call, naming only tools the caller holds. */
export function extractionNext(
  ctx: ToolContext,
  o: { done: boolean; failed: boolean; readTool: string },
): string {
  const read = ctx.holds(o.readTool) ? o.readTool : 'the read tool of this family';
  if (o.failed) {
    return `Some jobs failed; ${ctx.holds('extraction_status') ? 'extraction_status with the document_id shows why' : 'their errors are listed'}.`;
  }
  if (o.done) return `Done: read the results with ${read}.`;
  return `Queued: the work runs in the background; read the results with ${read} once it is done (or call again with wait_ms).`;
}
