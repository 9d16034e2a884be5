import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { one } from '../../src/contract/errors.ts';
import { approvalStates } from '../../src/db/schema/owners.ts';
import { decideApproval } from '../../src/owner/approvals.ts';

export const approval_review = defineTool({
  name: 'approval_review',
  title: 'Decide an approval request',
  description:
    'The owner approves or rejects an approval request that an owner-gated call left (approval mode), with ' +
    'their reason. An approval lets that agent repeat that exact call once, within 24 hours. Console only.',
  input: {
    approval_id: z.uuid().describe('The approval request'),
    decision: z.enum(['approve', 'reject']).describe('approve or reject'),
    reason: z.string().trim().min(1).max(2000).describe('The owner’s reason, shown to the agent and audited'),
  },
  output: z.object({
    approval_id: z.uuid(),
    tool: z.string().describe('The gated tool the request is for'),
    agent: z.string().describe('The agent that asked'),
    state: z.enum(approvalStates),
    decided_by: z.string().nullable().describe('The owner who decided'),
    decided_at: z.iso.datetime().nullable(),
    expires_at: z.iso.datetime().nullable().describe('Until when an approval can be used'),
    created: z.boolean().describe('false when this decision had already been recorded'),
  }),
  mutates: 'write',
  ownerOnly: true,
  // The database decides (the first decision stands): a repeat answers from it, never from a stored result.
  setSemantics: true,
  idempotencyKey: { describe: 'approval_id', of: (input) => input.approval_id },
  async run({ ctx, input }) {
    const owner = one(ctx.owner === undefined ? [] : [ctx.owner], 'owner principal');
    const { row, created } = await decideApproval(ctx.db, {
      id: input.approval_id,
      ownerId: owner.id,
      ownerName: owner.name,
      decision: input.decision,
      reason: input.reason,
      now: ctx.now(),
    });
    return ok(
      {
        approval_id: row.id,
        tool: row.tool,
        agent: row.agent,
        state: row.state,
        decided_by: row.decidedByName,
        decided_at: row.decidedAt?.toISOString() ?? null,
        expires_at: row.expiresAt?.toISOString() ?? null,
        created,
      },
      `Request ${row.id} ${row.state === 'rejected' ? 'rejected' : 'approved'}`,
    );
  },
});
