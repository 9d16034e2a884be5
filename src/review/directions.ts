// The direction family's shared parts: a direction as the tools return it, and loading one of a live case.

import * as z from 'zod';
import { liveCase } from '../cases/live.ts';
import { ToolError } from '../contract/errors.ts';
import { and, eq } from '../db/orm.ts';
import { cases } from '../db/schema/cases.ts';
import { directionStatuses, directions } from '../db/schema/review.ts';
import { outcomes } from '../db/schema/vocabulary.ts';
import type { DbOrTx } from '../db/types.ts';

export type DirectionRow = typeof directions.$inferSelect;

export const MAX_DIRECTION_ARGUMENTS = 50;

export const directionOutput = z.object({
  id: z.uuid(),
  title: z.string(),
  rationale: z.string(),
  outcome: z.enum(outcomes).describe('The outcome it leads to'),
  argument_ids: z.array(z.uuid()).max(MAX_DIRECTION_ARGUMENTS).describe('The arguments it rests on'),
  status: z.enum(directionStatuses).describe('proposed, approved (one per case), superseded or rejected'),
  proposed_by: z.string(),
  proposed_at: z.iso.datetime(),
  approved: z
    .object({ by: z.string(), at: z.iso.datetime(), reason: z.string().nullable() })
    .nullable()
    .describe('Who approved it, when and why (kept after it is superseded)'),
  superseded_by: z.uuid().nullable().describe('The approved direction that replaced it'),
  rejected: z
    .object({ by: z.string(), at: z.iso.datetime(), reason: z.string() })
    .nullable()
    .describe('Who declined it, when and why'),
});

export type DirectionView = z.output<typeof directionOutput>;

export const directionView = (r: DirectionRow): DirectionView => ({
  id: r.id,
  title: r.title,
  rationale: r.rationale,
  outcome: r.outcome,
  argument_ids: r.argumentIds,
  status: r.status,
  proposed_by: r.proposedBy,
  proposed_at: r.createdAt.toISOString(),
  approved:
    r.approvedBy === null || r.approvedAt === null
      ? null
      : { by: r.approvedBy, at: r.approvedAt.toISOString(), reason: r.approvalReason },
  superseded_by: r.supersededBy,
  rejected:
    r.rejectedBy === null || r.rejectedAt === null
      ? null
      : { by: r.rejectedBy, at: r.rejectedAt.toISOString(), reason: r.rejectionReason ?? '' },
});

/**
 * A direction of a live case (C7: a direction of a deleted case is not found). `lock` locks the case row, so
 * two approvals in one case run one after the other.
 */
export async function loadDirection(db: DbOrTx, id: string, lock = false): Promise<DirectionRow> {
  const query = db
    .select({ direction: directions })
    .from(directions)
    .innerJoin(cases, eq(cases.id, directions.caseId))
    .where(and(eq(directions.id, id), liveCase));
  const [row] = lock ? await query.for('update', { of: cases }) : await query;
  if (row === undefined) {
    throw new ToolError('not_found', `No direction with id ${id}`, {
      details: { direction_id: id },
      hint: 'direction_list with the case id shows its directions; a deleted case has none.',
    });
  }
  return row.direction;
}
