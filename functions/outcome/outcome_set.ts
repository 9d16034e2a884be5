import * as z from 'zod';
import { caseIdInput, liveCase, loadLiveCase } from '../../src/cases/live.ts';
import { outcomeInput, outcomeOf, parseOutcome } from '../../src/cases/outcomes.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { and, eq } from '../../src/db/orm.ts';
import { cases } from '../../src/db/schema/cases.ts';
import { directions } from '../../src/db/schema/review.ts';
import { outcomeLabels, outcomes } from '../../src/db/schema/vocabulary.ts';

const outcomeField = z.enum(outcomes);

export const outcome_set = defineTool({
  name: 'outcome_set',
  title: 'Set the outcome',
  description:
    'Owner-gated: sets a case’s outcome (rejection, partial_acceptance, full_acceptance; Hebrew labels ' +
    'and legacy values mapped).',
  input: { case_id: caseIdInput, outcome: outcomeInput },
  output: z.object({
    case_id: z.uuid(),
    outcome: outcomeField,
    previous: outcomeField.nullable().describe('The outcome before this call'),
    changed: z.boolean().describe('false when the case already had this outcome'),
    approved_direction_outcome: outcomeField
      .nullable()
      .describe('The outcome of the approved direction, if any (it should agree)'),
  }),
  mutates: 'write',
  ownerGate: true,
  precheck(input) {
    outcomeOf(input.outcome);
  },
  // Setting a value: a later repeat sets it again rather than replaying an answer a later call made stale.
  setSemantics: true,
  idempotencyKey: {
    describe: 'case_id + the canonical outcome',
    of: (input) => `${input.case_id}:${parseOutcome(input.outcome) ?? input.outcome}`,
  },
  async run({ ctx, input }) {
    const outcome = outcomeOf(input.outcome);
    const current = await loadLiveCase(ctx.db, input.case_id);
    const before = current.outcome;
    const [row] = await ctx.db
      .update(cases)
      .set(before === outcome ? { outcome } : { outcome, updatedAt: ctx.now() })
      .where(and(eq(cases.id, input.case_id), liveCase))
      .returning();
    // Deleted between the read and the write: answered as any unreachable case.
    if (row === undefined) {
      await loadLiveCase(ctx.db, input.case_id);
      throw new Error('the case changed under the call');
    }
    const [direction] = await ctx.db
      .select({ outcome: directions.outcome })
      .from(directions)
      .where(and(eq(directions.caseId, row.id), eq(directions.status, 'approved')));
    const directed = direction?.outcome ?? null;
    const disagree = directed !== null && directed !== outcome;
    return ok(
      {
        case_id: row.id,
        outcome,
        previous: before,
        changed: before !== outcome,
        approved_direction_outcome: directed,
      },
      `Case ${row.caseNumber}: outcome ${outcomeLabels[outcome]}${before === outcome ? ' (unchanged)' : ''}` +
        (disagree ? `; the approved direction leads to ${outcomeLabels[directed]}` : ''),
    );
  },
});
