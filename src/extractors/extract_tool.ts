// The one way an `*_extract` tool is written (docs/contract.md "Extraction"): a tool declares its extractor,
// its targets, its summary and its words; this queues one job per target document in the tool's
// transaction, waits up to wait_ms, and answers with the jobs, the summary once done and the next step.
import type * as z from 'zod';
import {
  defineTool,
  type InputShape,
  type ToolContext,
  type ToolDefinition,
  type ToolInput,
} from '../contract/define.ts';
import { ok } from '../contract/envelope.ts';
import type { Db } from '../db/types.ts';
import type { Extractor } from './framework.ts';
import {
  type ExtractionTargets,
  extractionNext,
  extractionOutput,
  runExtraction,
  type waitMsInput,
} from './tool.ts';

/** How the call went, for a tool's own next step. */
export interface ExtractRun {
  done: boolean;
  /** Some job is dead (failed for good). */
  failed: boolean;
  /** The documents targeted. */
  documents: number;
}

export interface ExtractTool<S extends InputShape & { wait_ms: typeof waitMsInput }, Y extends z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: S;
  idempotencyKey: { describe: string; of: (input: ToolInput<S>) => string };
  precheck?: (input: ToolInput<S>) => void;
  extractor: Extractor;
  /** The tool that reads what was extracted (the `readCounterpart`, named in the next step). */
  readTool: string;
  /** false: `readTool` is named in the answer only, not declared as the read counterpart (a tool not named *_extract). */
  counterpart?: false;
  /** The summary's shape, once the jobs are done. */
  summary: Y;
  /** The documents the call targets (reachability first: nothing is queued for an unreachable target). */
  targets(ctx: ToolContext, input: ToolInput<S>): Promise<ExtractionTargets>;
  summarize(db: Db, documentIds: readonly string[]): Promise<z.input<Y>>;
  /** The message once done. */
  done(summary: z.input<Y>, documents: number): string;
  /** The message while jobs are queued; by default "<readTool> shows the results once they are done". */
  queued?: (jobs: number) => string;
  /** A next step of the tool's own; undefined falls back to the common one (extractionNext). */
  next?: (ctx: ToolContext, run: ExtractRun) => string | undefined;
}

/** Declares an `*_extract` tool from what differs between them. */
export function defineExtractTool<
  S extends InputShape & { wait_ms: typeof waitMsInput },
  Y extends z.ZodType,
>(spec: ExtractTool<S, Y>) {
  const output = extractionOutput(spec.summary);
  const tool: ToolDefinition<S, typeof output> = {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: spec.input,
    output,
    mutates: 'write',
    ...(spec.counterpart === false ? {} : { readCounterpart: spec.readTool }),
    idempotencyKey: spec.idempotencyKey,
    precheck: spec.precheck,
    setSemantics: true,
    async run({ ctx, input }) {
      const targets = await spec.targets(ctx, input);
      // S has wait_ms (the type bound); zod's mapped output type does not show it for a generic S.
      const { wait_ms } = input as { wait_ms?: number | undefined };
      const run = await runExtraction(ctx, spec.extractor, targets.documents, wait_ms ?? 0);
      const failed = run.jobs.some((j) => j.state === 'dead');
      const ids = targets.documents.map((d) => d.id);
      const summary = run.done ? await spec.summarize(ctx.db, ids) : null;
      const state = { done: run.done, failed, documents: ids.length };
      const next =
        spec.next?.(ctx, state) ?? extractionNext(ctx, { done: run.done, failed, readTool: spec.readTool });
      return ok(
        { jobs: run.jobs, skipped: targets.skipped, done: run.done, summary, next },
        summary !== null
          ? spec.done(summary, ids.length)
          : (spec.queued?.(run.jobs.length) ??
              `Queued ${run.jobs.length} job(s); ${spec.readTool} shows the results once they are done`),
      );
    },
  };
  return defineTool(tool);
}
