import * as z from 'zod';
import { deadlineStates } from '../../src/cases/schedule.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { blockKinds } from '../../src/db/schema/drafting.ts';
import { practiceAreas } from '../../src/db/schema/vocabulary.ts';
import { MAX_DUE_CASES, metrics, periods, sinceOf } from '../../src/review/metrics.ts';
import { workflowStages } from '../../src/review/workflow.ts';

export const metrics_get = defineTool({
  name: 'metrics_get',
  title: 'Team metrics',
  description:
    'Over cases opened in a period: stages done and hours to them, open files by stage (as ' +
    'workflow_status), their age and due dates, throughput per practice area, the queue, the ' +
    'validation pass rate, the chair’s edit ratio per block kind and month.',
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
      .describe('Cases with the stage done, mean hours from opening'),
    backlog: z
      .array(z.object({ stage: z.enum(workflowStages), cases: z.int() }))
      .max(workflowStages.length)
      .describe('Open files by stage'),
    open: z.object({
      cases: z.int(),
      mean_age_days: z.number().nullable(),
      max_age_days: z.number().nullable(),
    }),
    due: z.object({
      passed: z.int(),
      due_soon: z.int(),
      later: z.int(),
      no_due_date: z.int(),
      cases: z
        .array(
          z.object({
            case_id: z.uuid(),
            case_number: z.string(),
            stage: z.enum(workflowStages),
            due_date: z.string(),
            days_left: z.int(),
            state: z.enum(deadlineStates),
          }),
        )
        .max(MAX_DUE_CASES)
        .describe('Nearest first'),
    }),
    throughput: z
      .array(
        z.object({
          practice_area: z.enum(practiceAreas).nullable(),
          opened: z.int(),
          finished: z.int(),
          mean_days: z.number().nullable().describe('Days to the final version'),
        }),
      )
      .max(practiceAreas.length + 1),
    edit_ratio_by_month: z
      .array(z.object({ month: z.string().describe('YYYY-MM'), blocks: z.int(), mean: z.number() }))
      .max(1200),
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
    const m = await metrics(ctx.db, since, ctx.now());
    return ok(
      { period, since: since?.toISOString() ?? null, ...m },
      `${m.cases} case(s), ${m.open.cases} open (${m.due.passed} overdue, ${m.due.due_soon} due within 14 days); ` +
        `validation pass rate ${m.validation.pass_rate ?? 'n/a'}`,
    );
  },
});
