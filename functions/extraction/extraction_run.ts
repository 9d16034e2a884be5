import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { invalidArg } from '../../src/contract/errors.ts';
import { stableStringify } from '../../src/contract/hash.ts';
import { drainReportOutput, jobKindInput } from '../../src/jobs/views.ts';

export const extraction_run = defineTool({
  name: 'extraction_run',
  title: 'Run background work now',
  description:
    'Runs one bounded batch of background jobs now instead of waiting for the worker, and reports ' +
    'jobs claimed, succeeded, retried, dead, their errors and how many still wait. Use it when ' +
    'extraction_status shows work you need done before going on; work also runs on its own soon after ' +
    'it is queued.',
  input: {
    kind: jobKindInput.optional(),
    max_jobs: z.int().min(1).max(100).optional().describe('At most this many jobs (default 20)'),
  },
  output: drainReportOutput,
  mutates: 'write',
  // A drain is idempotent by itself (jobs are claimed once per attempt); the key only turns a concurrent
  // duplicate into in_progress, and a repeat always drains again instead of replaying an old report.
  idempotencyKey: {
    describe: 'the arguments (a concurrent duplicate waits)',
    of: (input) => `drain:${stableStringify(input)}`,
  },
  setSemantics: true,
  async run({ ctx, input }) {
    if (input.kind !== undefined && !ctx.jobs.kinds.includes(input.kind)) {
      throw invalidArg('kind', `not a kind this server runs (it runs ${ctx.jobs.kinds.join(', ')})`);
    }
    const report = await ctx.jobs.drain({
      maxJobs: input.max_jobs ?? 20,
      ...(input.kind === undefined ? {} : { kinds: [input.kind] }),
    });
    return ok(
      report,
      `Ran ${report.claimed} job(s): ${report.succeeded} succeeded, ${report.retried} to retry, ` +
        `${report.dead} dead; ${report.remaining} still waiting`,
    );
  },
});
