// Shared pieces of the governance family: inputs, project/mission/lease loading, artifact confinement,
// the contract's validation and scope rule, and the device-mount rule.
import { and, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { ToolContext } from '../../src/contract/define.ts';
import { ToolError } from '../../src/contract/errors.ts';
import { sha256Hex, stableStringify } from '../../src/contract/hash.ts';
import {
  type ContractCriterion,
  type HaiContractRow,
  type HaiLeaseRow,
  type HaiMissionRow,
  haiArtifacts,
  haiContracts,
  haiLeases,
  haiMissions,
  haiMounts,
  haiProjects,
  haiProposals,
} from '../../src/db/schema/hai.ts';
import type { Db } from '../../src/db/types.ts';

export const projectIdInput = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'letters, digits, ".", "_" or "-", up to 64')
  .describe('The logical project id (as bound with hai_bind_project), e.g. "erer-1024-25"');

export const deviceIdInput = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .describe(
    'The device this session runs on; required when the mission names a project (its mount is checked)',
  );

export const missionIdInput = z.uuid().describe('The mission id returned by hai_open_mission or hai_status');
export const leaseIdInput = z.uuid().describe('The lease_id returned by hai_authorize_session');

/** The finite contract's terms, shared by hai_open_mission and hai_recontract. */
export const contractInput = {
  goal: z.string().trim().min(1).max(2000).describe('What the mission must achieve, in one or two sentences'),
  in_scope: z
    .array(z.string().trim().min(1).max(200))
    .min(1)
    .max(50)
    .describe(
      'Activity labels the mission allows, e.g. ["analysis", "research:case-law"]; an activity matches a label equal to it or that it extends with ":"',
    ),
  out_of_scope: z
    .array(z.string().trim().min(1).max(200))
    .max(50)
    .optional()
    .describe('Activity labels explicitly outside the mission (checked before in_scope)'),
  criteria: z
    .array(
      z.object({
        id: z
          .string()
          .trim()
          .regex(/^[a-z0-9][a-z0-9_-]{0,49}$/, 'lower-case letters, digits, "_" or "-"')
          .describe('Short criterion id, e.g. "claims-mapped"'),
        description: z.string().trim().min(1).max(1000).describe('What must be true'),
        verification: z
          .string()
          .trim()
          .min(1)
          .max(1000)
          .describe('How it is verified (what is checked, by whom or by which test)'),
      }),
    )
    .min(1)
    .max(30)
    .describe('Acceptance criteria: at least one, each with how it is verified'),
  expires_at: z.iso
    .datetime({ offset: true })
    .describe('When the mission expires (ISO 8601, in the future, at most 366 days ahead)'),
  max_sessions: z
    .number()
    .int()
    .min(1)
    .max(20)
    .optional()
    .describe('How many session leases may be live at once (default 2)'),
};

export interface ContractTerms {
  goal: string;
  inScope: string[];
  outOfScope: string[];
  criteria: ContractCriterion[];
  expiresAt: Date;
  maxSessions: number;
}

const MAX_CONTRACT_DAYS = 366;

/** The finite-contract gate: criteria with distinct ids and an expiry in the (bounded) future. */
export function validContract(
  input: {
    goal: string;
    in_scope: string[];
    out_of_scope?: string[] | undefined;
    criteria: ContractCriterion[];
    expires_at: string;
    max_sessions?: number | undefined;
  },
  now: Date,
): ContractTerms {
  const issues: { path: string; message: string }[] = [];
  const expiresAt = new Date(input.expires_at);
  if (expiresAt.getTime() <= now.getTime()) {
    issues.push({ path: 'expires_at', message: 'must be in the future' });
  } else if (expiresAt.getTime() - now.getTime() > MAX_CONTRACT_DAYS * 86_400_000) {
    issues.push({ path: 'expires_at', message: `must be at most ${MAX_CONTRACT_DAYS} days ahead` });
  }
  const seen = new Set<string>();
  for (const [i, c] of input.criteria.entries()) {
    if (seen.has(c.id))
      issues.push({ path: `criteria.${i}.id`, message: `duplicate criterion id "${c.id}"` });
    seen.add(c.id);
  }
  if (issues.length > 0) {
    throw new ToolError('invalid_args', 'The contract is not a valid finite contract', {
      details: { issues },
      hint: 'A contract needs at least one criterion (each with how it is verified, distinct ids) and an expiry in the future.',
    });
  }
  const norm = (labels: string[] | undefined) => [...new Set((labels ?? []).map(normaliseActivity))];
  return {
    goal: input.goal,
    inScope: norm(input.in_scope),
    outOfScope: norm(input.out_of_scope),
    criteria: input.criteria.map((c) => ({
      id: c.id,
      description: c.description,
      verification: c.verification,
    })),
    expiresAt,
    maxSessions: input.max_sessions ?? 2,
  };
}

/** Identifies a contract's terms, so a retried open or recontract is recognised after the replay window. */
export const termsHash = (t: ContractTerms) =>
  sha256Hex(stableStringify({ ...t, expiresAt: t.expiresAt.toISOString() }));

/**
 * Writes one version of a mission's contract from validated terms: v1 from hai_open_mission, the next from
 * hai_recontract (which also records the owner's reason or the break-glass marker).
 */
export async function writeContract(
  tx: Db,
  ctx: ToolContext,
  next: {
    missionId: string;
    version: number;
    terms: ContractTerms;
    termsSha256: string;
    createdAt: Date;
    reason?: string | null;
    breakGlass?: boolean;
    breakGlassMarker?: string | null;
  },
): Promise<HaiContractRow> {
  const { terms, ...columns } = next;
  const [contract] = await tx
    .insert(haiContracts)
    .values({
      ...columns,
      goal: terms.goal,
      inScope: terms.inScope,
      outOfScope: terms.outOfScope,
      criteria: terms.criteria,
      expiresAt: terms.expiresAt,
      maxSessions: terms.maxSessions,
      createdBy: ctx.agent,
    })
    .returning();
  if (contract === undefined) throw new Error('contract insert returned no row');
  return contract;
}

export const normaliseActivity = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

/** The scope rule: out_of_scope first, then in_scope; a label matches itself and its ":" extensions. */
export function scopeOf(
  contract: Pick<HaiContractRow, 'inScope' | 'outOfScope'>,
  activity: string,
): { in_scope: boolean; matched: string | null; rule: 'out_of_scope' | 'in_scope' | 'not_listed' } {
  const act = normaliseActivity(activity);
  const matches = (label: string) => act === label || act.startsWith(`${label}:`);
  const out = contract.outOfScope.find(matches);
  if (out !== undefined) return { in_scope: false, matched: out, rule: 'out_of_scope' };
  const inside = contract.inScope.find(matches);
  if (inside !== undefined) return { in_scope: true, matched: inside, rule: 'in_scope' };
  return { in_scope: false, matched: null, rule: 'not_listed' };
}

export const contractView = (c: HaiContractRow) => ({
  version: c.version,
  goal: c.goal,
  in_scope: c.inScope,
  out_of_scope: c.outOfScope,
  criteria: c.criteria,
  expires_at: c.expiresAt.toISOString(),
  max_sessions: c.maxSessions,
  created_by: c.createdBy,
  created_at: c.createdAt.toISOString(),
  break_glass: c.breakGlass,
  break_glass_marker: c.breakGlassMarker,
});

export const missionView = (m: HaiMissionRow) => ({
  id: m.id,
  name: m.name,
  project_id: m.projectId,
  title: m.title,
  state: m.state,
  contract_version: m.currentVersion,
  lease_epoch: m.leaseEpoch,
  opened_by: m.openedBy,
  opened_at: m.openedAt.toISOString(),
  closed_by: m.closedBy,
  closed_at: m.closedAt?.toISOString() ?? null,
  close_reason: m.closeReason,
});

export const leaseView = (l: HaiLeaseRow) => ({
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

/**
 * The row left by a write that tolerates its key already being taken (on conflict do nothing, or an upsert
 * that skips an unchanged row): the row the write returned, so this call wrote it, else the row already
 * stored under that key (`existing`). A retry or a racing duplicate ends with the same row, written: false.
 */
export async function writtenOrExisting<R>(
  write: PromiseLike<R[]>,
  existing: () => PromiseLike<R[]>,
  what: string,
): Promise<{ row: R; written: boolean }> {
  const returned = await write;
  const row = returned[0] ?? (await existing())[0];
  if (row === undefined) throw new Error(`${what} missing after the write`);
  return { row, written: returned.length > 0 };
}

// ---------------------------------------------------------------------------------------------- projects

export async function loadProject(db: Db, id: string, lock = false) {
  const q = db.select().from(haiProjects).where(eq(haiProjects.id, id));
  const rows = lock ? await q.for('update') : await q;
  const row = rows[0];
  if (row === undefined) {
    throw new ToolError('missing_project', `No project "${id}"`, {
      details: { project_id: id },
      hint: 'Bind the project with hai_bind_project (owner-gated) first, or check the id with hai_status.',
    });
  }
  return row;
}

// --------------------------------------------------------------------------------------------- artifacts

/** The run-contract artifact names; anything else (and any path) is outside the project root. */
const fixedArtifacts = new Set([
  'PROJECT_STATE.md',
  'PROMPT.md',
  'INTENT.md',
  'CODE_STATE.md',
  'BRIEFING.md',
  'NEXT_STEP.md',
  'NEXT_STEP.proposed.md',
]);
const reportArtifact = /^(EXECUTION|VALIDATION)_REPORT_[A-Z0-9][A-Z0-9_-]{0,63}\.md$/;

/** Names a tool other than propose/accept may write (NEXT_STEP*.md only go through the proposal gate). */
export const isFreelyWritable = (name: string) => name !== 'NEXT_STEP.md' && name !== 'NEXT_STEP.proposed.md';

/** Confines an artifact name to the allowed set; everything else is path_outside_root, saying why. */
export function confineArtifactName(name: string): string {
  if (fixedArtifacts.has(name) || reportArtifact.test(name)) return name;
  const why = name.includes('\0')
    ? 'contains NUL'
    : /%[0-9a-f]{2}/i.test(name)
      ? 'contains URL-encoded characters'
      : name.includes('\\')
        ? 'contains a backslash'
        : name.startsWith('/') || /^[a-z]:/i.test(name)
          ? 'is an absolute path'
          : name.includes('..')
            ? 'contains ".."'
            : name.includes('/')
              ? 'names a path, not an artifact'
              : 'is not a run-contract artifact name';
  throw new ToolError('path_outside_root', `Artifact name ${JSON.stringify(name)} ${why}`, {
    details: {
      name,
      reason: why,
      allowed: [...fixedArtifacts, 'EXECUTION_REPORT_<ID>.md', 'VALIDATION_REPORT_<ID>.md'],
    },
    hint: 'Use one of the run-contract artifact names exactly (e.g. PROJECT_STATE.md); paths are never accepted.',
  });
}

/** The latest version of each artifact of a project (name → version). */
export async function latestVersions(db: Db, projectId: string): Promise<Record<string, number>> {
  const rows = await db
    .select({ name: haiArtifacts.name, version: sql<number>`max(${haiArtifacts.version})::int` })
    .from(haiArtifacts)
    .where(eq(haiArtifacts.projectId, projectId))
    .groupBy(haiArtifacts.name);
  return Object.fromEntries(rows.map((r) => [r.name, r.version]));
}

export async function latestArtifact(db: Db, projectId: string, name: string) {
  const rows = await db
    .select()
    .from(haiArtifacts)
    .where(and(eq(haiArtifacts.projectId, projectId), eq(haiArtifacts.name, name)))
    .orderBy(desc(haiArtifacts.version))
    .limit(1);
  return rows[0];
}

/** Joins a next-step proposal to its text: the version of NEXT_STEP.proposed.md it wrote. */
export const proposalText = and(
  eq(haiArtifacts.projectId, haiProposals.projectId),
  eq(haiArtifacts.name, 'NEXT_STEP.proposed.md'),
  eq(haiArtifacts.version, haiProposals.version),
);

/** The latest version of an artifact and its hash, not its content (up to 100 KB). */
async function artifactHead(tx: Db, projectId: string, name: string) {
  const [head] = await tx
    .select({ version: haiArtifacts.version, sha256: haiArtifacts.sha256 })
    .from(haiArtifacts)
    .where(and(eq(haiArtifacts.projectId, projectId), eq(haiArtifacts.name, name)))
    .orderBy(desc(haiArtifacts.version))
    .limit(1);
  return head;
}

async function insertArtifact(
  tx: Db,
  ctx: ToolContext,
  a: { projectId: string; name: string; content: string; sha256: string; version: number },
): Promise<number> {
  await tx.insert(haiArtifacts).values({ ...a, writtenBy: ctx.agent, writtenAt: ctx.now() });
  return a.version;
}

/** Writes the next version of an artifact; the caller holds the project row lock, so versions never race. */
export async function writeArtifact(
  tx: Db,
  ctx: ToolContext,
  projectId: string,
  name: string,
  content: string,
  sha256: string,
): Promise<number> {
  const head = await artifactHead(tx, projectId, name);
  return insertArtifact(tx, ctx, { projectId, name, content, sha256, version: (head?.version ?? 0) + 1 });
}

/** writeArtifact, unless the content equals the latest version: then nothing is written (null). */
export async function writeArtifactIfChanged(
  tx: Db,
  ctx: ToolContext,
  projectId: string,
  name: string,
  content: string,
  sha256: string,
): Promise<number | null> {
  const head = await artifactHead(tx, projectId, name);
  if (head?.sha256 === sha256) return null;
  return insertArtifact(tx, ctx, { projectId, name, content, sha256, version: (head?.version ?? 0) + 1 });
}

// ---------------------------------------------------------------------------------------------- missions

export async function loadMission(db: Db, id: string, lock?: 'update' | 'share'): Promise<HaiMissionRow> {
  const q = db.select().from(haiMissions).where(eq(haiMissions.id, id));
  const rows = lock === undefined ? await q : await q.for(lock);
  const row = rows[0];
  if (row === undefined) {
    throw new ToolError('not_found', `No mission with id ${id}`, {
      details: { mission_id: id },
      hint: 'Use hai_status to find the mission id.',
    });
  }
  return row;
}

export async function loadContract(db: Db, missionId: string, version: number): Promise<HaiContractRow> {
  const rows = await db
    .select()
    .from(haiContracts)
    .where(and(eq(haiContracts.missionId, missionId), eq(haiContracts.version, version)));
  const row = rows[0];
  if (row === undefined) throw new Error(`mission ${missionId} has no contract v${version}`);
  return row;
}

/** Refuses a closed mission, or (given its contract and the time) an expired one: mission_not_active. */
export function requireActive(m: HaiMissionRow, contract?: HaiContractRow, now?: Date): void {
  if (m.state !== 'active') {
    throw new ToolError(
      'mission_not_active',
      `Mission "${m.name}" is ${m.state}; a closed mission is terminal`,
      {
        details: { mission_id: m.id, state: m.state },
        hint: 'Open a new mission with hai_open_mission if there is more work.',
      },
    );
  }
  if (contract !== undefined && now !== undefined && contract.expiresAt.getTime() <= now.getTime()) {
    throw new ToolError(
      'mission_not_active',
      `Mission "${m.name}" expired at ${contract.expiresAt.toISOString()}`,
      {
        details: { mission_id: m.id, state: 'expired', expires_at: contract.expiresAt.toISOString() },
        hint: 'Ask the owner to extend it with hai_recontract, or close it with hai_close_mission.',
      },
    );
  }
}

/** The device rule: with a project, device_id is required and must be mounted. */
export async function requireDevice(db: Db, projectId: string | null, deviceId: string | undefined) {
  if (projectId === null) return;
  if (deviceId === undefined) {
    throw new ToolError(
      'invalid_args',
      `This mission's contract names project "${projectId}": give device_id`,
      {
        details: { issues: [{ path: 'device_id', message: 'required when the contract names a project' }] },
      },
    );
  }
  const rows = await db
    .select({ deviceId: haiMounts.deviceId })
    .from(haiMounts)
    .where(and(eq(haiMounts.projectId, projectId), eq(haiMounts.deviceId, deviceId)));
  if (rows.length === 0) {
    throw new ToolError(
      'device_mount_required',
      `Project "${projectId}" is not mounted on device "${deviceId}"`,
      {
        details: { project_id: projectId, device_id: deviceId },
        hint: 'Ask the ceo to bind the project on this device with hai_bind_project (owner-gated).',
      },
    );
  }
}

// ------------------------------------------------------------------------------------------------ leases

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

const leaseNotFound = (id: string) =>
  new ToolError('not_found', `No session lease ${id} for this agent`, {
    details: { lease_id: id },
    hint: 'Authorize a session with hai_authorize_session and use the lease_id it returns.',
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
  if (row === undefined || row.lease.agent !== ctx.agent) throw leaseNotFound(leaseId);
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
  if (owner === undefined || owner.agent !== ctx.agent) throw leaseNotFound(leaseId);
  const mission = await loadMission(tx, owner.missionId, 'share');
  const [lease] = await tx.select().from(haiLeases).where(eq(haiLeases.id, leaseId)).for('share');
  if (lease === undefined) throw leaseNotFound(leaseId);
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
 * the next lease epoch, and revokes the live leases. The caller holds the mission row lock, and drops the
 * key-value copies (uncacheLeases) once the transaction committed.
 */
export async function revokeSessions(
  tx: Db,
  ctx: ToolContext,
  mission: HaiMissionRow,
  changes: Omit<Partial<typeof haiMissions.$inferInsert>, 'leaseEpoch'>,
  reason: string,
): Promise<{ mission: HaiMissionRow; revoked: string[] }> {
  const [updated] = await tx
    .update(haiMissions)
    .set({ ...changes, leaseEpoch: mission.leaseEpoch + 1 })
    .where(eq(haiMissions.id, mission.id))
    .returning();
  if (updated === undefined) throw new Error('mission update returned no row');
  const rows = await tx
    .update(haiLeases)
    .set({ revokedAt: ctx.now(), revokeReason: reason })
    .where(and(eq(haiLeases.missionId, mission.id), sql`${haiLeases.revokedAt} is null`))
    .returning({ id: haiLeases.id });
  return { mission: updated, revoked: rows.map((r) => r.id) };
}
