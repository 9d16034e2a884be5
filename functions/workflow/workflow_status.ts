import * as z from 'zod';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import { datesView, deadlineOf, deadlineOutput, loadDates, localDay } from '../../src/cases/schedule.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { blockKinds } from '../../src/db/schema/drafting.ts';
import { outcomes } from '../../src/db/schema/vocabulary.ts';
import { caseState, stageOf, workflowStages } from '../../src/review/workflow.ts';

const stage = z.enum(workflowStages);
const at = z.iso.datetime();

export const workflow_status = defineTool({
  name: 'workflow_status',
  title: 'Where the case stands',
  description:
    'A case’s stage from documents to final version, what is done and missing, the next action ' +
    'per agent with its tool, and a warning when the decision is due within 14 days or overdue.',
  input: { case_id: caseIdInput },
  output: z.object({
    case_id: z.uuid(),
    stage: stage.describe('The first stage not done'),
    done: z.array(stage).max(workflowStages.length),
    documents: z.object({ total: z.int(), ready: z.int(), pending: z.int(), failed: z.int() }),
    analysis: z.object({
      claims: z.int(),
      confirmed: z.int(),
      candidates: z.int(),
      arguments: z.int().describe('In the latest argument map'),
      references: z.int(),
      facts: z.int(),
      conflicts: z.int().describe('Between appraisers'),
    }),
    direction: z.object({
      proposed: z.int(),
      approved: z.object({ id: z.uuid(), title: z.string(), outcome: z.enum(outcomes) }).nullable(),
    }),
    outcome: z.enum(outcomes).nullable(),
    blocks: z.object({
      written: z.int(),
      missing: z.array(z.enum(blockKinds)).max(blockKinds.length).describe('Required kinds not written'),
      last_written_at: at.nullable(),
    }),
    validation: z
      .object({
        run_id: z.uuid(),
        checked_at: at,
        valid: z.boolean(),
        errors: z.int(),
        warnings: z.int(),
        current: z.boolean(),
      })
      .nullable()
      .describe('The last draft_validate; current: newer than every block'),
    export: z.object({ export_id: z.uuid(), at, current: z.boolean() }).nullable(),
    final_version: z.object({ id: z.uuid(), at }).nullable(),
    deadline: deadlineOutput,
    next_actions: z
      .array(
        z.object({
          agent: z.enum(['ceo', 'analyst', 'researcher', 'writer', 'qa']),
          tool: z.string(),
          why: z.string(),
        }),
      )
      .max(20),
  }),
  mutates: false,
  async run({ ctx, input }) {
    const c = await loadLiveCase(ctx.db, input.case_id);
    const state = await caseState(ctx.db, c);
    const { stage: now, done, next } = stageOf(c, state);
    // A finished case has nothing left to be late for.
    const dueDate = datesView(await loadDates(ctx.db, c.id)).decision_due_date;
    const deadline = deadlineOf(dueDate, localDay(ctx.now()), now === 'final');
    return ok(
      { case_id: c.id, stage: now, done, ...state, deadline, next_actions: next },
      `Case ${c.caseNumber}: ${now}${deadline?.warning ? ` (${deadline.warning})` : ''}; next: ${next.map((a) => `${a.agent} ${a.tool}`).join(', ') || 'nothing'}`,
    );
  },
});
