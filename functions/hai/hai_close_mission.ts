import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { ToolError } from '../../src/contract/errors.ts';
import { and, eq } from '../../src/db/orm.ts';
import { haiEvidence } from '../../src/db/schema/hai.ts';
import { confirmationsOf } from '../../src/governance/confirmations.ts';
import { endedLeasesOutput, revokeSessions, uncacheLeases } from '../../src/governance/leases.ts';
import {
  loadContract,
  loadMission,
  missionIdInput,
  missionOutput,
  missionView,
} from '../../src/governance/missions.ts';
import { deviceIdInput, requireDevice } from '../../src/governance/projects.ts';
import { sentence, use } from '../../src/governance/roles.ts';
import { runCheck } from '../../src/review/criteria.ts';

export const hai_close_mission = defineTool({
  name: 'hai_close_mission',
  title: 'Close a mission',
  description:
    'Closes an active mission for good and revokes its leases. "completed" needs every criterion met: ' +
    'a server-checked one passing now, a free-text one confirmed by the owner (hai_proof alone is not ' +
    'enough); else review_required, listing them. "abandoned" is owner-gated. device_id when the mission ' +
    'names a project.',
  input: {
    mission_id: missionIdInput,
    outcome: z
      .enum(['completed', 'abandoned'])
      .describe('"completed" (all criteria proven) or "abandoned" (owner-gated)'),
    summary: z.string().trim().min(1).max(5000).optional().describe('What was achieved or why it stops'),
    device_id: deviceIdInput.optional(),
  },
  output: z.object({
    mission: missionOutput,
    revoked_leases: endedLeasesOutput,
    created: z.boolean().describe('false when the mission was already closed this way and was returned'),
  }),
  mutates: 'destructive',
  ownerGate: (input) => input.outcome === 'abandoned',
  idempotencyKey: { describe: 'mission_id + outcome', of: (input) => `${input.mission_id}:${input.outcome}` },
  async run({ ctx, input, gate }) {
    const result = await ctx.db.transaction(async (tx) => {
      const mission = await loadMission(tx, input.mission_id, 'update');
      if (mission.state === input.outcome)
        return { mission, revoked: [] as string[], ended: [] as string[], created: false };
      if (mission.state !== 'active') {
        throw new ToolError(
          'mission_not_active',
          `Mission "${mission.name}" is already ${mission.state}; closing is terminal`,
          {
            details: { mission_id: mission.id, state: mission.state },
          },
        );
      }
      await requireDevice(tx, ctx, mission.projectId, input.device_id);
      if (input.outcome === 'completed') {
        const contract = await loadContract(tx, mission.id, mission.currentVersion);
        const passing = await tx
          .selectDistinct({ criterionId: haiEvidence.criterionId })
          .from(haiEvidence)
          .where(
            and(
              eq(haiEvidence.missionId, mission.id),
              eq(haiEvidence.contractVersion, mission.currentVersion),
              eq(haiEvidence.result, 'pass'),
            ),
          );
        const evidenced = new Set(passing.map((p) => p.criterionId));
        // A free-text criterion counts on the owner's confirmation, never on an agent's word alone.
        const proven = new Set(
          (await confirmationsOf(tx, mission.id, mission.currentVersion)).map((c) => c.criterionId),
        );
        // A criterion the server checks is judged now, whatever evidence was recorded before.
        const failedChecks: { id: string; kind: string; case_id: string; found: string }[] = [];
        for (const c of contract.criteria) {
          if (!c.check) continue;
          const now = await runCheck(tx, c.check);
          if (now.pass) proven.add(c.id);
          else {
            proven.delete(c.id);
            failedChecks.push({ id: c.id, kind: c.check.kind, case_id: c.check.case_id, found: now.detail });
          }
        }
        if (failedChecks.length > 0) {
          throw new ToolError(
            'review_required',
            `${failedChecks.length} server-checked criterion(s) fail now`,
            {
              details: {
                mission_id: mission.id,
                contract_version: contract.version,
                failed_checks: failedChecks,
              },
              hint: 'Have what each check found fixed (qa runs draft_validate, the writer draft_export, the ceo final_version_ingest), then close again.',
            },
          );
        }
        const missing = contract.criteria.filter((c) => !proven.has(c.id));
        if (missing.length > 0) {
          const awaiting = missing.filter((c) => evidenced.has(c.id)).map((c) => c.id);
          throw new ToolError(
            'review_required',
            `${missing.length} criterion(s) are not met under contract v${contract.version} (${awaiting.length} await the owner’s confirmation)`,
            {
              details: {
                mission_id: mission.id,
                contract_version: contract.version,
                criteria_without_evidence: missing.map((c) => ({ id: c.id, verification: c.verification })),
                awaiting_owner_confirmation: awaiting,
              },
              hint: sentence(
                `${use(ctx, 'hai_proof', 'record passing evidence for each listed criterion', ' (under a session lease)')}; ` +
                  'the owner then confirms each free-text criterion on the mission’s page in the console; then close again',
              ),
            },
          );
        }
      }
      const {
        mission: closed,
        revoked,
        ended,
      } = await revokeSessions(
        tx,
        ctx,
        mission,
        {
          state: input.outcome,
          closedBy: ctx.agent,
          closedAt: ctx.now(),
          closeReason: gate?.reason ?? null,
          closeSummary: input.summary ?? null,
        },
        `mission ${input.outcome}`,
      );
      return { mission: closed, revoked, ended, created: true };
    });
    await uncacheLeases(ctx, result.revoked);
    return ok(
      { mission: missionView(result.mission), revoked_leases: result.ended, created: result.created },
      result.created
        ? `Mission ${result.mission.name} ${input.outcome}; ${result.ended.length} live lease(s) revoked`
        : `Mission ${result.mission.name} was already ${input.outcome}`,
    );
  },
});
