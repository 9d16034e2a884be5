import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { one, ToolError } from '../../src/contract/errors.ts';
import { eq } from '../../src/db/orm.ts';
import { directions } from '../../src/db/schema/review.ts';
import { directionOutput, directionView, loadDirection } from '../../src/review/directions.ts';

export const direction_review = defineTool({
  name: 'direction_review',
  title: 'Review a proposed direction: decline it (owner)',
  description:
    'The owner’s review of a proposed direction that declines it (approving is direction_approve, ' +
    'owner-gated), with a reason: it stays in direction_list as rejected and ' +
    'no longer waits for the owner; the agents propose another. Only a proposed one (else invalid_state). ' +
    'Console only; no agent calls it.',
  input: {
    direction_id: z.uuid().describe('The direction (direction_list shows them)'),
    reason: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .describe('Why it is declined, audited and shown to the agents'),
  },
  output: z.object({
    direction: directionOutput,
    created: z.boolean().describe('false when it was already rejected: nothing changed'),
  }),
  mutates: 'write',
  ownerOnly: true,
  idempotencyKey: { describe: 'direction_id', of: (input) => input.direction_id },
  async run({ ctx, input }) {
    const result = await ctx.db.transaction(async (tx) => {
      const direction = await loadDirection(tx, input.direction_id, true);
      if (direction.status === 'rejected') return { direction, created: false };
      if (direction.status !== 'proposed') {
        throw new ToolError(
          'invalid_state',
          `The direction is ${direction.status}; only a proposed direction can be declined`,
          {
            details: { status: direction.status },
            hint: 'An approved direction is replaced by approving another one (direction_approve).',
          },
        );
      }
      const rejected = one(
        await tx
          .update(directions)
          .set({
            status: 'rejected',
            rejectedBy: ctx.agent,
            rejectedAt: ctx.now(),
            rejectionReason: input.reason,
          })
          .where(eq(directions.id, direction.id))
          .returning(),
        'the rejected direction',
      );
      return { direction: rejected, created: true };
    });
    const d = result.direction;
    return ok(
      { direction: directionView(d), created: result.created },
      result.created ? `Direction "${d.title}" declined` : `Direction "${d.title}" was already declined`,
    );
  },
});
