import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { invalidArg, ToolError } from '../../src/contract/errors.ts';
import {
  contractInput,
  contractOutput,
  contractView,
  termsHash,
  validContract,
  writeContract,
} from '../../src/governance/contracts.ts';
import { endedLeasesOutput, revokeSessions, uncacheLeases } from '../../src/governance/leases.ts';
import {
  loadContract,
  loadMission,
  missionIdInput,
  missionOutput,
  missionView,
  requireActive,
} from '../../src/governance/missions.ts';

export const hai_recontract = defineTool({
  name: 'hai_recontract',
  title: 'Replace a mission’s contract',
  description:
    'Writes the next version of an active mission’s contract (full new terms) and revokes its leases: ' +
    'sessions read it and authorize again. Owner-gated, unless break_glass with a break_glass_marker ' +
    '(an incident reference) in an emergency. ' +
    'expected_version names the version replaced (stale: contract_version_mismatch).',
  input: {
    mission_id: missionIdInput,
    expected_version: z.number().int().min(1).describe('The contract version you are replacing'),
    ...contractInput,
    break_glass: z
      .boolean()
      .optional()
      .describe('Emergency change without the owner; needs break_glass_marker'),
    break_glass_marker: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe('The incident reference justifying break_glass (recorded)'),
  },
  output: z.object({
    mission: missionOutput,
    contract: contractOutput.describe('The version this call wrote (or, on a retry, had written)'),
    revoked_leases: endedLeasesOutput,
    created: z.boolean().describe('false when this version was already written by the same call'),
  }),
  mutates: 'destructive',
  // Without break-glass this is the owner's decision; break-glass replaces the gate by a recorded marker.
  ownerGate: (input) => input.break_glass !== true,
  idempotencyKey: {
    describe: 'mission_id + expected_version',
    of: (input) => `${input.mission_id}:${input.expected_version}`,
  },
  precheck: (input) => {
    if (input.break_glass !== true && input.break_glass_marker !== undefined) {
      throw invalidArg('break_glass_marker', 'given without break_glass: true');
    }
    if (input.break_glass === true && input.break_glass_marker === undefined) {
      throw invalidArg(
        'break_glass_marker',
        'required with break_glass: true',
        'Give the incident reference as break_glass_marker, or drop break_glass and get the owner’s acknowledgement.',
      );
    }
  },
  async run({ ctx, input, gate }) {
    const now = ctx.now();
    const terms = validContract(input, now);
    const termsSha256 = termsHash(terms);
    const result = await ctx.db.transaction(async (tx) => {
      const mission = await loadMission(tx, input.mission_id, 'update');
      const next = input.expected_version + 1;
      if (mission.currentVersion >= next) {
        // A retry after success: the version this call would have written exists with the same terms.
        const written = await loadContract(tx, mission.id, next);
        if (
          written.termsSha256 === termsSha256 &&
          written.breakGlassMarker === (input.break_glass_marker ?? null)
        ) {
          return {
            mission,
            contract: written,
            revoked: [] as string[],
            ended: [] as string[],
            created: false,
          };
        }
      }
      requireActive(ctx, mission);
      if (mission.currentVersion !== input.expected_version) {
        throw new ToolError(
          'contract_version_mismatch',
          `The contract is at version ${mission.currentVersion}, not ${input.expected_version}`,
          {
            details: {
              mission_id: mission.id,
              current_version: mission.currentVersion,
              expected_version: input.expected_version,
            },
          },
        );
      }
      const contract = await writeContract(tx, ctx, {
        missionId: mission.id,
        version: next,
        terms,
        termsSha256,
        createdAt: now,
        reason: gate?.reason ?? null,
        breakGlass: input.break_glass === true,
        breakGlassMarker: input.break_glass_marker ?? null,
      });
      const {
        mission: updated,
        revoked,
        ended,
      } = await revokeSessions(tx, ctx, mission, { currentVersion: next }, `recontract to v${next}`);
      return { mission: updated, contract, revoked, ended, created: true };
    });
    await uncacheLeases(ctx, result.revoked);
    return ok(
      {
        mission: missionView(result.mission),
        contract: contractView(result.contract),
        revoked_leases: result.ended,
        created: result.created,
      },
      result.created
        ? `Contract v${result.contract.version} in force; ${result.ended.length} live lease(s) revoked`
        : `Contract v${result.contract.version} was already written`,
    );
  },
});
