import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { blockKinds } from '../../src/db/schema/drafting.ts';
import { metrics, periods, sinceOf } from '../../src/review/metrics.ts';
import { workflowStages } from '../../src/review/workflow.ts';

export const metrics_get = defineTool({
  name: 'metrics_get',
  title: 'Team metrics',
  description:
    'Over cases opened in a period: stages reached and hours to them, the queue, the validation pass ' +
    'rate, the chair’s edit ratio per block kind.',
  input: {
    period: z.enum(periods).optional().describe('Cases opened in the last …; default all'),
  },
  output: z.object({
    period: z.enum(periods),
    since: z.iso.datetime().nullable(),
    cases: z.int(),
    stages: z
      .array(z.object({ stage: z.enum(workflowStages), reached: z.int(), mean_hours: z.number().nullable() }))
      .max(workflowStages.length)
      .describe('Cases that reached each stage, and the mean hours from opening to it'),
    queue: z.object({
      pending: z.int(),
      running: z.int(),
      failed: z.int(),
      dead: z.int(),
      succeeded: z.int(),
    }),
    validation: z.object({ runs: z.int(), passed: z.int(), pass_rate: z.number().nullable() }),
    edit_ratio: z
      .array(z.object({ kind: z.enum(blockKinds), blocks: z.int(), mean: z.number() }))
      .max(blockKinds.length)
      .describe('0 = the chair changed nothing, 1 = rewrote it'),
  }),
  mutates: false,
  async run({ ctx, input }) {
    const period = input.period ?? 'all';
    const since = sinceOf(period, ctx.now());
    const m = await metrics(ctx.db, since);
    return ok(
      { period, since: since?.toISOString() ?? null, ...m },
      `${m.cases} case(s); validation pass rate ${m.validation.pass_rate ?? 'n/a'}`,
    );
  },
});
