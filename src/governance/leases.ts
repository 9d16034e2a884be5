// Session leases: the right of one agent's session to work under a mission's contract until it expires or
// the mission's lease epoch moves on. Postgres decides; the key-value store holds a copy for fast reads.

import * as z from 'zod';
import type { ToolContext } from '../contract/define.ts';
import { one, ToolError } from '../contract/errors.ts';
import { and, asc, eq, gt, isNull, type SQLWrapper, sql } from '../db/orm.ts';
import {
  type HaiContractRow,
  type HaiLeaseRow,
  type HaiMissionRow,
  haiLeases,
  haiMissions,
} from '../db/schema/hai.ts';
import type { Db } from '../db/types.ts';
import { MAX_SESSIONS } from './contracts.ts';
import { loadContract, loadMission } from './missions.ts';
import { type Holds, sentence, use } from './roles.ts';

export const leaseIdInput = z.uuid().describe('Your session lease (hai_authorize_session)');

export const leaseKvKey = (id: string) => `hai:lease:v1:${id}`;

interface LeaseCopy {
  mission_id: string;
  epoch: number;
  agent: string;
  contract_version: number;
  expires_at: string;
}

/** Writes the key-value copy of a lease, living exactly as long as the lease. Best effort: Postgres decides. */
export async function cacheLease(ctx: ToolContext, l: HaiLeaseRow): Promise<void> {
  const ttl = l.expiresAt.getTime() - ctx.now().getTime();
  if (ttl <= 0) return;
  const copy: LeaseCopy = {
    mission_id: l.missionId,
    epoch: l.epoch,
    agent: l.agent,
    contract_version: l.contractVersion,
    expires_at: l.expiresAt.toISOString(),
  };
  try {
    await ctx.kv.set(leaseKvKey(l.id), JSON.stringify(copy), ttl);
  } catch (e) {
    ctx.log.warn('lease cache write failed', { error: String(e) });
  }
}

export async function uncacheLeases(ctx: ToolContext, ids: string[]): Promise<void> {
  await Promise.all(
    ids.map((id) =>
      ctx.kv.delete(leaseKvKey(id)).catch((e: unknown) => {
        ctx.log.warn('lease cache delete failed', { error: String(e) });
      }),
    ),
  );
}

/**
 * The SQL form of a live lease: not revoked, of its mission's current lease epoch (`epoch`: the mission's,
 * a joined column or a known value), and not yet expired at `now`. judgeLease applies the same rule to one.
 */
export const leaseIsLive = (epoch: SQLWrapper | number, now: Date) =>
  and(isNull(haiLeases.revokedAt), eq(haiLeases.epoch, epoch), gt(haiLeases.expiresAt, now));

/** A mission's live leases, the oldest first. */
export const liveLeasesOf = (
  db: Db,
  mission: Pick<HaiMissionRow, 'id' | 'leaseEpoch'>,
  now: Date,
  limit: number,
) =>
  db
    .select()
    .from(haiLeases)
    .where(and(eq(haiLeases.missionId, mission.id), leaseIsLive(mission.leaseEpoch, now)))
    .orderBy(asc(haiLeases.issuedAt))
    .limit(limit);

const leaseNotFound = (ctx: Holds, id: string) =>
  new ToolError('not_found', `No session lease ${id} for this agent`, {
    details: { lease_id: id },
    hint: sentence(
      use(ctx, 'hai_authorize_session', 'authorize a session', ' and use the lease_id it returns'),
    ),
  });

/** Refuses a lease whose epoch is not the mission's (revoked) or whose time is up (expired). */
function judgeLease(
  lease: { id: string; epoch: number; expiresAt: Date; revokedAt: Date | null },
  mission: HaiMissionRow,
  now: Date,
): void {
  if (lease.revokedAt !== null || lease.epoch !== mission.leaseEpoch) {
    throw new ToolError(
      'lease_revoked',
      `Lease ${lease.id} was revoked (the contract changed or the mission closed)`,
      {
        details: {
          lease_id: lease.id,
          lease_epoch: lease.epoch,
          mission_epoch: mission.leaseEpoch,
          mission_state: mission.state,
          contract_version: mission.currentVersion,
        },
      },
    );
  }
  if (lease.expiresAt.getTime() <= now.getTime()) {
    throw new ToolError('lease_expired', `Lease ${lease.id} expired at ${lease.expiresAt.toISOString()}`, {
      details: { lease_id: lease.id, expired_at: lease.expiresAt.toISOString() },
    });
  }
}

/**
 * Read path: the lease from its key-value copy when present (else Postgres, and re-cached), judged against
 * the mission's epoch read from Postgres, the authority. A revoked lease is refused even while the copy lives.
 */
export async function readLease(
  ctx: ToolContext,
  leaseId: string,
): Promise<{
  lease: Pick<HaiLeaseRow, 'id' | 'missionId' | 'epoch' | 'contractVersion' | 'expiresAt'>;
  mission: HaiMissionRow;
}> {
  let copy: LeaseCopy | null = null;
  try {
    const raw = await ctx.kv.get(leaseKvKey(leaseId));
    copy = raw === null ? null : (JSON.parse(raw) as LeaseCopy);
  } catch (e) {
    ctx.log.warn('lease cache read failed', { error: String(e) });
  }
  if (copy !== null && copy.agent === ctx.agent) {
    const mission = await loadMission(ctx.db, copy.mission_id);
    const lease = {
      id: leaseId,
      missionId: copy.mission_id,
      epoch: copy.epoch,
      contractVersion: copy.contract_version,
      expiresAt: new Date(copy.expires_at),
      revokedAt: null,
    };
    judgeLease(lease, mission, ctx.now());
    return { lease, mission };
  }
  const rows = await ctx.db
    .select({ lease: haiLeases, mission: haiMissions })
    .from(haiLeases)
    .innerJoin(haiMissions, eq(haiMissions.id, haiLeases.missionId))
    .where(eq(haiLeases.id, leaseId));
  const row = rows[0];
  if (row === undefined || row.lease.agent !== ctx.agent) throw leaseNotFound(ctx, leaseId);
  judgeLease(row.lease, row.mission, ctx.now());
  await cacheLease(ctx, row.lease);
  return { lease: row.lease, mission: row.mission };
}

/**
 * Write path, inside the transaction that writes: the mission row, then the lease row, locked FOR SHARE, so
 * a recontract or close (FOR UPDATE on the mission, then its leases: the same order, so no deadlock) cannot
 * slip between this check and the write. The clock is read after the locks: a lease that expired while the
 * call waited or ran is refused here.
 */
async function lockLease(
  tx: Db,
  ctx: ToolContext,
  leaseId: string,
): Promise<{ lease: HaiLeaseRow; mission: HaiMissionRow }> {
  const [owner] = await tx
    .select({ missionId: haiLeases.missionId, agent: haiLeases.agent })
    .from(haiLeases)
    .where(eq(haiLeases.id, leaseId));
  if (owner === undefined || owner.agent !== ctx.agent) throw leaseNotFound(ctx, leaseId);
  const mission = await loadMission(tx, owner.missionId, 'share');
  const [lease] = await tx.select().from(haiLeases).where(eq(haiLeases.id, leaseId)).for('share');
  if (lease === undefined) throw leaseNotFound(ctx, leaseId);
  judgeLease(lease, mission, ctx.now());
  return { lease, mission };
}

/**
 * A write bound to a session lease: run in a transaction that locks and judges the lease where it writes
 * (lockLease), with the contract the lease works under. (No fast-path check first: it would only repeat it.)
 */
export async function writeUnderLease<T>(
  ctx: ToolContext,
  leaseId: string,
  write: (
    tx: Db,
    bound: { lease: HaiLeaseRow; mission: HaiMissionRow; contract: HaiContractRow },
  ) => Promise<T>,
): Promise<T> {
  return ctx.db.transaction(async (tx) => {
    const { lease, mission } = await lockLease(tx, ctx, leaseId);
    const contract = await loadContract(tx, mission.id, lease.contractVersion);
    return write(tx, { lease, mission, contract });
  });
}

/**
 * Ends every session of a mission: writes `changes` (the new contract version, or the close) together with
 * the next lease epoch, and revokes every lease not yet revoked. The caller holds the mission row lock, and
 * drops the key-value copies of `revoked` (uncacheLeases) once the transaction committed. `ended` are the
 * leases that were still live: the sessions this stopped, at most the contract's cap (hai_authorize_session
 * counts and inserts under the same lock), which is what the tools report.
 */
export async function revokeSessions(
  tx: Db,
  ctx: ToolContext,
  mission: HaiMissionRow,
  changes: Omit<Partial<typeof haiMissions.$inferInsert>, 'leaseEpoch'>,
  reason: string,
): Promise<{ mission: HaiMissionRow; revoked: string[]; ended: string[] }> {
  const updated = one(
    await tx
      .update(haiMissions)
      .set({ ...changes, leaseEpoch: mission.leaseEpoch + 1 })
      .where(eq(haiMissions.id, mission.id))
      .returning(),
    'mission update',
  );
  const now = ctx.now();
  const rows = await tx
    .update(haiLeases)
    .set({ revokedAt: now, revokeReason: reason })
    .where(and(eq(haiLeases.missionId, mission.id), sql`${haiLeases.revokedAt} is null`))
    .returning({ id: haiLeases.id, expiresAt: haiLeases.expiresAt });
  const ended = rows
    .filter((r) => r.expiresAt.getTime() > now.getTime())
    .map((r) => r.id)
    .sort()
    .slice(0, MAX_SESSIONS);
  return { mission: updated, revoked: rows.map((r) => r.id), ended };
}

/** The sessions a recontract or close ended, as the tools report them. */
export const endedLeasesOutput = z
  .array(z.uuid())
  .max(MAX_SESSIONS)
  .describe(
    'The live session leases this revoked (expired leases of the mission are marked revoked too, not listed)',
  );

/** A session lease as the tools return it. */
export const leaseOutput = z.object({
  lease_id: z.uuid().describe('The lease id hai_get_contract, hai_check_activity and hai_proof take'),
  mission_id: z.uuid().describe('The mission it works under'),
  contract_version: z.int().min(1).describe('The contract version it works under'),
  epoch: z.int().min(1).describe('The mission’s lease epoch it was issued in'),
  agent: z.string().describe('The agent it belongs to (no other agent can use it)'),
  device_id: z.string().nullable().describe('The device named when it was authorized'),
  harness_id: z.string().nullable().describe('The harness or run named when it was authorized'),
  issued_at: z.iso.datetime().describe('When it was issued'),
  expires_at: z.iso.datetime().describe('When it expires (never past the contract’s expiry)'),
});

export const leaseView = (l: HaiLeaseRow): z.input<typeof leaseOutput> => ({
  lease_id: l.id,
  mission_id: l.missionId,
  contract_version: l.contractVersion,
  epoch: l.epoch,
  agent: l.agent,
  device_id: l.deviceId,
  harness_id: l.harnessId,
  issued_at: l.issuedAt.toISOString(),
  expires_at: l.expiresAt.toISOString(),
});
