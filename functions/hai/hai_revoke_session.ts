import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { ToolError } from '../../src/contract/errors.ts';
import { and, eq, isNull } from '../../src/db/orm.ts';
import { haiLeases } from '../../src/db/schema/hai.ts';
import { uncacheLeases } from '../../src/governance/leases.ts';

export const hai_revoke_session = defineTool({
  name: 'hai_revoke_session',
  title: 'Revoke one session lease',
  description:
    'The owner ends one agent session: its lease stops working at once (lease_revoked); the mission and the ' +
    'other sessions go on. Console only; a recontract or close ends every session instead.',
  input: {
    lease_id: z.uuid().describe('The session lease to end'),
    reason: z.string().trim().min(1).max(2000).describe('Why, audited'),
  },
  output: z.object({
    lease_id: z.uuid(),
    mission_id: z.uuid(),
    agent: z.string().describe('The agent whose session ended'),
    revoked_at: z.iso.datetime(),
    created: z.boolean().describe('false when it was already revoked'),
  }),
  mutates: 'destructive',
  ownerOnly: true,
  idempotencyKey: { describe: 'lease_id', of: (input) => input.lease_id },
  async run({ ctx, input }) {
    const reason = `${ctx.agent}: ${input.reason}`;
    const updated = await ctx.db
      .update(haiLeases)
      .set({ revokedAt: ctx.now(), revokeReason: reason })
      .where(and(eq(haiLeases.id, input.lease_id), isNull(haiLeases.revokedAt)))
      .returning();
    const row =
      updated[0] ?? (await ctx.db.select().from(haiLeases).where(eq(haiLeases.id, input.lease_id)))[0];
    if (row === undefined) {
      throw new ToolError('not_found', `No session lease ${input.lease_id}`, {
        details: { lease_id: input.lease_id },
      });
    }
    // Reads may take the lease from its key-value copy: drop it, so they look in Postgres and see the revocation.
    await uncacheLeases(ctx, [row.id]);
    return ok(
      {
        lease_id: row.id,
        mission_id: row.missionId,
        agent: row.agent,
        revoked_at: (row.revokedAt ?? ctx.now()).toISOString(),
        created: updated[0] !== undefined,
      },
      `Session ${row.id} of ${row.agent} revoked`,
    );
  },
});
