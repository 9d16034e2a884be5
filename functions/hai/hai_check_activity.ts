import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { writtenOrExisting } from '../../src/contract/durable.ts';
import { ok } from '../../src/contract/envelope.ts';
import { and, eq } from '../../src/db/orm.ts';
import { haiActivityChecks } from '../../src/db/schema/hai.ts';
import { normaliseActivity, scopeOf } from '../../src/governance/contracts.ts';
import { leaseIdInput, writeUnderLease } from '../../src/governance/leases.ts';

export const hai_check_activity = defineTool({
  name: 'hai_check_activity',
  title: 'Check an activity against the contract',
  description:
    'Says whether an activity is inside your session’s contract before you do it: out_of_scope first, ' +
    'then in_scope; a label covers itself and its ":" extensions ("research" covers ' +
    '"research:case-law"). Writes only an audit record. Out of scope: do not do it; park it with ' +
    'hai_park_item.',
  input: {
    lease_id: leaseIdInput,
    activity: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .describe('The activity you are about to do, e.g. "research:case-law"'),
  },
  output: z.object({
    activity: z.string().describe('The activity as checked (lower case, single spaces)'),
    in_scope: z.boolean().describe('Whether the contract allows it; false means: do not do it'),
    matched: z.string().nullable().describe('The contract label that decided, or null when none matches'),
    rule: z
      .enum(['out_of_scope', 'in_scope', 'not_listed'])
      .describe('Which list decided: out_of_scope (checked first), in_scope, or neither'),
    contract_version: z.int().min(1).describe('The contract version of your lease'),
    checked_at: z.iso.datetime().describe('When this activity was first checked under this lease'),
  }),
  mutates: 'write',
  idempotencyKey: {
    describe: 'lease_id + activity (normalised)',
    of: (input) => `${input.lease_id}:${normaliseActivity(input.activity)}`,
  },
  async run({ ctx, input }) {
    const activity = normaliseActivity(input.activity);
    return writeUnderLease(ctx, input.lease_id, async (tx, { lease, contract }) => {
      const verdict = scopeOf(contract, activity);
      const { row } = await writtenOrExisting(
        tx
          .insert(haiActivityChecks)
          .values({
            leaseId: lease.id,
            activity,
            inScope: verdict.in_scope,
            matched: verdict.matched,
            agent: ctx.agent,
            checkedAt: ctx.now(),
          })
          .onConflictDoNothing()
          .returning({ checkedAt: haiActivityChecks.checkedAt }),
        () =>
          tx
            .select({ checkedAt: haiActivityChecks.checkedAt })
            .from(haiActivityChecks)
            .where(and(eq(haiActivityChecks.leaseId, lease.id), eq(haiActivityChecks.activity, activity))),
        'activity check',
      );
      return ok(
        {
          activity,
          in_scope: verdict.in_scope,
          matched: verdict.matched,
          rule: verdict.rule,
          contract_version: contract.version,
          checked_at: row.checkedAt.toISOString(),
        },
        verdict.in_scope
          ? `"${activity}" is inside the contract (${verdict.matched})`
          : verdict.rule === 'out_of_scope'
            ? `"${activity}" is explicitly out of scope (${verdict.matched}): do not do it`
            : `"${activity}" is not in the contract’s scope: do not do it`,
      );
    });
  },
});
