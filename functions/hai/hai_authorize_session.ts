import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { one, ToolError } from '../../src/contract/errors.ts';
import { and, eq, gt, isNull } from '../../src/db/orm.ts';
import { haiLeases } from '../../src/db/schema/hai.ts';
import { MAX_SESSIONS } from '../../src/governance/contracts.ts';
import { cacheLease, leaseOutput, leaseView } from '../../src/governance/leases.ts';
import { loadContract, loadMission, missionIdInput, requireActive } from '../../src/governance/missions.ts';
import { deviceIdInput, requireDevice } from '../../src/governance/projects.ts';

const DEFAULT_TTL_S = 1800;

export const hai_authorize_session = defineTool({
  name: 'hai_authorize_session',
  title: 'Authorize a work session',
  description:
    'Issues a session lease: the right to work under an active mission’s current contract until it ' +
    'expires, the contract changes or the mission closes. Give the contract_version you read (stale: ' +
    'contract_version_mismatch), and device_id when the mission names a project. Over the session cap: ' +
    'parallel_session_denied. Pass the lease_id to hai_get_contract, hai_check_activity and hai_proof.',
  input: {
    mission_id: missionIdInput,
    contract_version: z.number().int().min(1).describe('The contract version you read'),
    device_id: deviceIdInput.optional(),
    harness_id: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .describe('Which harness or run this is (tells parallel sessions apart)'),
    ttl_seconds: z
      .number()
      .int()
      .min(60)
      .max(86_400)
      .optional()
      .describe(`Lease lifetime in seconds (default ${DEFAULT_TTL_S}); never past the contract’s expiry`),
  },
  output: z.object({
    lease: leaseOutput,
    live_sessions: z
      .int()
      .min(1)
      .max(MAX_SESSIONS)
      .describe('Live sessions of the mission, this one included'),
    max_sessions: z.int().min(1).max(MAX_SESSIONS).describe('The contract’s cap on live sessions'),
    created: z.boolean().describe('false when your live lease for this session was returned'),
  }),
  mutates: 'write',
  // A live lease for the same session is returned from Postgres, and an expired one must give way to a new
  // lease: so the request layer never replays a stored result, it only makes a concurrent duplicate wait.
  idempotencyKey: {
    describe: 'mission_id + contract_version + device_id + harness_id',
    of: (input) =>
      `${input.mission_id}:${input.contract_version}:${input.device_id ?? ''}:${input.harness_id ?? ''}`,
  },
  setSemantics: true,
  async run({ ctx, input }) {
    const result = await ctx.db.transaction(async (tx) => {
      // The mission row lock makes count-then-insert atomic: capacity holds under any concurrency.
      const mission = await loadMission(tx, input.mission_id, 'update');
      const now = ctx.now();
      const contract = await loadContract(tx, mission.id, mission.currentVersion);
      requireActive(ctx, mission, contract, now);
      if (input.contract_version !== mission.currentVersion) {
        throw new ToolError(
          'contract_version_mismatch',
          `The contract is at version ${mission.currentVersion}; you read ${input.contract_version}`,
          {
            details: {
              mission_id: mission.id,
              current_version: mission.currentVersion,
              given_version: input.contract_version,
            },
          },
        );
      }
      await requireDevice(tx, ctx, mission.projectId, input.device_id);
      const live = await tx
        .select()
        .from(haiLeases)
        .where(
          and(
            eq(haiLeases.missionId, mission.id),
            eq(haiLeases.epoch, mission.leaseEpoch),
            isNull(haiLeases.revokedAt),
            gt(haiLeases.expiresAt, now),
          ),
        );
      const same = live.find(
        (l) =>
          l.agent === ctx.agent &&
          l.deviceId === (input.device_id ?? null) &&
          l.harnessId === (input.harness_id ?? null),
      );
      if (same !== undefined)
        return { lease: same, created: false, live: live.length, max: contract.maxSessions };
      if (live.length >= contract.maxSessions) {
        throw new ToolError(
          'parallel_session_denied',
          `Mission "${mission.name}" already has ${live.length} live session(s); the contract allows ${contract.maxSessions}`,
          {
            details: {
              mission_id: mission.id,
              max_sessions: contract.maxSessions,
              live_sessions: live.length,
              next_expiry: new Date(Math.min(...live.map((l) => l.expiresAt.getTime()))).toISOString(),
            },
          },
        );
      }
      const ttlMs = (input.ttl_seconds ?? DEFAULT_TTL_S) * 1000;
      const expiresAt = new Date(Math.min(now.getTime() + ttlMs, contract.expiresAt.getTime()));
      const inserted = await tx
        .insert(haiLeases)
        .values({
          id: crypto.randomUUID(),
          missionId: mission.id,
          contractVersion: mission.currentVersion,
          epoch: mission.leaseEpoch,
          agent: ctx.agent,
          deviceId: input.device_id ?? null,
          harnessId: input.harness_id ?? null,
          issuedAt: now,
          expiresAt,
        })
        .returning();
      return {
        lease: one(inserted, 'lease insert'),
        created: true,
        live: live.length + 1,
        max: contract.maxSessions,
      };
    });
    await cacheLease(ctx, result.lease);
    return ok(
      {
        lease: leaseView(result.lease),
        live_sessions: result.live,
        max_sessions: result.max,
        created: result.created,
      },
      result.created
        ? `Session authorized until ${result.lease.expiresAt.toISOString()}`
        : 'Your live lease for this session was returned',
    );
  },
});
