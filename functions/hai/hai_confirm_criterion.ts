import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { writtenOrExisting } from '../../src/contract/durable.ts';
import { ok } from '../../src/contract/envelope.ts';
import { ToolError } from '../../src/contract/errors.ts';
import { and, eq } from '../../src/db/orm.ts';
import { haiConfirmations } from '../../src/db/schema/hai.ts';
import { confirmationOutput, confirmationView } from '../../src/governance/confirmations.ts';
import { loadContract, loadMission, missionIdInput, requireActive } from '../../src/governance/missions.ts';

export const hai_confirm_criterion = defineTool({
  name: 'hai_confirm_criterion',
  title: 'Confirm a free-text criterion (owner)',
  description:
    'The owner confirms that a free-text acceptance criterion of an active mission is met, under its ' +
    'current contract version, after reading the agents’ evidence on the missions page. Only this makes ' +
    'such a criterion count for hai_close_mission "completed"; a criterion the server checks is judged by ' +
    'the server instead (invalid_state). Console only; no agent calls it.',
  input: {
    mission_id: missionIdInput,
    criterion_id: z
      .string()
      .trim()
      .min(1)
      .max(50)
      .describe('The criterion id from the contract (the missions page shows it)'),
    reason: z.string().trim().min(1).max(2000).describe('What the owner saw that meets it, audited'),
  },
  output: z.object({
    confirmation: confirmationOutput,
    created: z.boolean().describe('false when it was already confirmed under this contract version'),
  }),
  mutates: 'write',
  ownerOnly: true,
  idempotencyKey: {
    describe: 'mission_id + criterion_id',
    of: (input) => `${input.mission_id}:${input.criterion_id}`,
  },
  async run({ ctx, input }) {
    return ctx.db.transaction(async (tx) => {
      // FOR SHARE: a recontract or close (FOR UPDATE) waits, so the version confirmed is the current one.
      const mission = await loadMission(tx, input.mission_id, 'share');
      const contract = await loadContract(tx, mission.id, mission.currentVersion);
      requireActive(ctx, mission, contract, ctx.now());
      const criterion = contract.criteria.find((c) => c.id === input.criterion_id);
      if (criterion === undefined) {
        throw new ToolError(
          'not_found',
          `Contract v${contract.version} has no criterion "${input.criterion_id}"`,
          { details: { criterion_id: input.criterion_id, criteria: contract.criteria.map((c) => c.id) } },
        );
      }
      if (criterion.check) {
        throw new ToolError(
          'invalid_state',
          `Criterion "${criterion.id}" is checked by the server (${criterion.check.kind}); it needs no confirmation`,
          {
            details: { criterion_id: criterion.id, check: criterion.check },
            hint: 'The server runs this check itself when the mission closes; nothing to confirm.',
          },
        );
      }
      const { row, written } = await writtenOrExisting(
        tx
          .insert(haiConfirmations)
          .values({
            missionId: mission.id,
            contractVersion: contract.version,
            criterionId: criterion.id,
            confirmedBy: ctx.agent,
            confirmedAt: ctx.now(),
            reason: input.reason,
          })
          .onConflictDoNothing()
          .returning(),
        () =>
          tx
            .select()
            .from(haiConfirmations)
            .where(
              and(
                eq(haiConfirmations.missionId, mission.id),
                eq(haiConfirmations.contractVersion, contract.version),
                eq(haiConfirmations.criterionId, criterion.id),
              ),
            ),
        'confirmation',
      );
      return ok(
        { confirmation: confirmationView(row), created: written },
        written
          ? `Criterion ${criterion.id} confirmed by the owner under contract v${contract.version}`
          : `Criterion ${criterion.id} was already confirmed under contract v${contract.version}`,
      );
    });
  },
});
