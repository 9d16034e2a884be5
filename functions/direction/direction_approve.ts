import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { one } from '../../src/contract/errors.ts';
import { and, eq } from '../../src/db/orm.ts';
import { directions } from '../../src/db/schema/review.ts';
import { outcomeLabels } from '../../src/db/schema/vocabulary.ts';
import { directionOutput, directionView, loadDirection } from '../../src/review/directions.ts';

export const direction_approve = defineTool({
  name: 'direction_approve',
  title: 'Approve a direction',
  description:
    'Owner-gated: makes a direction the case’s one approved direction, superseding the one before.',
  input: { direction_id: z.uuid().describe('The direction (direction_list shows them)') },
  output: z.object({
    direction: directionOutput,
    superseded: directionOutput.nullable().describe('The direction it replaced, if one was approved'),
    created: z.boolean().describe('false when it was already the approved direction: nothing changed'),
  }),
  mutates: 'write',
  ownerGate: true,
  // Which direction is approved is a value set: approving A, then B, then A again must approve A again, not
  // replay the first answer. The durable check (already approved → created false) makes repeats harmless.
  setSemantics: true,
  idempotencyKey: { describe: 'direction_id', of: (input) => input.direction_id },
  async run({ ctx, input, gate }) {
    const result = await ctx.db.transaction(async (tx) => {
      // The case row is locked first: two approvals in one case run one after the other.
      const direction = await loadDirection(tx, input.direction_id, true);
      if (direction.status === 'approved') return { direction, superseded: null, created: false };
      const now = ctx.now();
      const previous = await tx
        .update(directions)
        .set({ status: 'superseded', supersededAt: now, supersededBy: direction.id })
        .where(and(eq(directions.caseId, direction.caseId), eq(directions.status, 'approved')))
        .returning();
      const approved = one(
        await tx
          .update(directions)
          .set({
            status: 'approved',
            approvedBy: gate?.owner ?? ctx.agent,
            approvedAt: now,
            approvalReason: gate?.reason ?? null,
            supersededAt: null,
            supersededBy: null,
            rejectedBy: null,
            rejectedAt: null,
            rejectionReason: null,
          })
          .where(eq(directions.id, direction.id))
          .returning(),
        'the approved direction',
      );
      return { direction: approved, superseded: previous[0] ?? null, created: true };
    });
    const d = result.direction;
    return ok(
      {
        direction: directionView(d),
        superseded: result.superseded === null ? null : directionView(result.superseded),
        created: result.created,
      },
      result.created
        ? `Direction "${d.title}" approved (${outcomeLabels[d.outcome]})${result.superseded ? `; "${result.superseded.title}" superseded` : ''}`
        : `Direction "${d.title}" is already the approved one`,
    );
  },
});
