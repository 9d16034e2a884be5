// The owner's side of approval requests (src/contract/approvals.ts is the agent's side): what waits for a
// decision, and the decision itself. Deciding goes through the approval_review tool, as the owner principal.

import { APPROVAL_TTL_MS } from '../contract/approvals.ts';
import { ToolError } from '../contract/errors.ts';
import { and, desc, eq, inArray } from '../db/orm.ts';
import { type ApprovalState, type OwnerApprovalRow, ownerApprovals } from '../db/schema/owners.ts';
import type { Db } from '../db/types.ts';

export type Decision = 'approve' | 'reject';

export async function approvalsIn(
  db: Db,
  states: readonly ApprovalState[],
  limit = 100,
): Promise<OwnerApprovalRow[]> {
  return db
    .select()
    .from(ownerApprovals)
    .where(inArray(ownerApprovals.state, [...states]))
    .orderBy(desc(ownerApprovals.requestedAt))
    .limit(limit);
}

export async function approvalById(db: Db, id: string): Promise<OwnerApprovalRow | null> {
  return (await db.select().from(ownerApprovals).where(eq(ownerApprovals.id, id)).limit(1))[0] ?? null;
}

/**
 * Records the owner's decision on a pending request. The first decision stands: the same decision again
 * returns it (`created: false`); another decision, or a request no longer pending, is invalid_state.
 */
export async function decideApproval(
  db: Db,
  d: { id: string; ownerId: string; ownerName: string; decision: Decision; reason: string; now: Date },
): Promise<{ row: OwnerApprovalRow; created: boolean }> {
  const state = d.decision === 'approve' ? 'approved' : 'rejected';
  const updated = await db
    .update(ownerApprovals)
    .set({
      state,
      decidedBy: d.ownerId,
      decidedByName: d.ownerName,
      decidedAt: d.now,
      decisionReason: d.reason,
      expiresAt: d.decision === 'approve' ? new Date(d.now.getTime() + APPROVAL_TTL_MS) : null,
    })
    .where(and(eq(ownerApprovals.id, d.id), eq(ownerApprovals.state, 'pending')))
    .returning();
  if (updated[0] !== undefined) return { row: updated[0], created: true };
  const row = await approvalById(db, d.id);
  if (row === null) {
    throw new ToolError('not_found', `No approval request ${d.id}`, { details: { approval_id: d.id } });
  }
  const same = row.state === state || (state === 'approved' && row.state === 'used');
  if (same && row.decidedBy === d.ownerId) return { row, created: false };
  throw new ToolError('invalid_state', `Request ${d.id} was already decided (${row.state})`, {
    details: { approval_id: d.id, state: row.state, decided_by: row.decidedByName },
    hint: 'A decision is final; the agent can ask again, which makes a new request.',
  });
}
