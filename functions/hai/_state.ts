// Read-only views shared by hai_status, hai_health and hai_recover.
import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { ToolContext } from '../../src/contract/define.ts';
import {
  haiCheckpoints,
  haiContracts,
  haiEvidence,
  haiInbox,
  haiLanes,
  haiLeases,
  haiMissions,
  haiMounts,
  haiProjects,
  haiProposals,
} from '../../src/db/schema/hai.ts';

export type Health = { database: 'up' | 'down'; kv: { status: 'up' | 'down'; kind: string } };

/** Pings both stores; a store that does not answer is "down", never an error of the tool. */
export async function storeHealth(ctx: ToolContext): Promise<Health> {
  const probe = async (f: () => Promise<unknown>) => {
    try {
      await f();
      return 'up' as const;
    } catch {
      return 'down' as const;
    }
  };
  const [database, kv] = await Promise.all([
    probe(() => ctx.db.execute(sql`select 1`)),
    probe(() => ctx.kv.ping()),
  ]);
  return { database, kv: { status: kv, kind: ctx.kv.kind } };
}

/** Active missions (optionally of one project) with their current contract, live leases and evidence. */
export async function activeMissions(ctx: ToolContext, projectId?: string) {
  const now = ctx.now();
  const missions = await ctx.db
    .select({ mission: haiMissions, contract: haiContracts })
    .from(haiMissions)
    .innerJoin(
      haiContracts,
      and(eq(haiContracts.missionId, haiMissions.id), eq(haiContracts.version, haiMissions.currentVersion)),
    )
    .where(
      and(
        eq(haiMissions.state, 'active'),
        projectId === undefined ? undefined : eq(haiMissions.projectId, projectId),
      ),
    )
    .orderBy(haiMissions.openedAt);
  if (missions.length === 0) return [];
  const ids = missions.map((m) => m.mission.id);
  const leases = await ctx.db
    .select()
    .from(haiLeases)
    .where(and(inArray(haiLeases.missionId, ids), isNull(haiLeases.revokedAt)));
  const evidence = await ctx.db
    .select({
      missionId: haiEvidence.missionId,
      version: haiEvidence.contractVersion,
      criterionId: haiEvidence.criterionId,
      pass: sql<boolean>`bool_or(${haiEvidence.result} = 'pass')`,
    })
    .from(haiEvidence)
    .where(inArray(haiEvidence.missionId, ids))
    .groupBy(haiEvidence.missionId, haiEvidence.contractVersion, haiEvidence.criterionId);
  return missions.map(({ mission, contract }) => {
    const mine = leases.filter((l) => l.missionId === mission.id && l.epoch === mission.leaseEpoch);
    const live = mine.filter((l) => l.expiresAt.getTime() > now.getTime());
    const stale = mine.filter((l) => l.expiresAt.getTime() <= now.getTime());
    const ev = evidence.filter((e) => e.missionId === mission.id && e.version === mission.currentVersion);
    return {
      mission,
      contract,
      expired: contract.expiresAt.getTime() <= now.getTime(),
      live,
      stale,
      criteria: contract.criteria.map((c) => {
        const e = ev.find((x) => x.criterionId === c.id);
        return {
          ...c,
          evidence: e === undefined ? ('none' as const) : e.pass ? ('pass' as const) : ('fail' as const),
        };
      }),
    };
  });
}

export const missionSummary = (m: Awaited<ReturnType<typeof activeMissions>>[number]) => ({
  id: m.mission.id,
  name: m.mission.name,
  title: m.mission.title,
  project_id: m.mission.projectId,
  state: m.expired ? 'active (expired)' : m.mission.state,
  contract_version: m.mission.currentVersion,
  goal: m.contract.goal,
  in_scope: m.contract.inScope,
  out_of_scope: m.contract.outOfScope,
  expires_at: m.contract.expiresAt.toISOString(),
  max_sessions: m.contract.maxSessions,
  live_sessions: m.live.map((l) => ({
    lease_id: l.id,
    agent: l.agent,
    device_id: l.deviceId,
    harness_id: l.harnessId,
    expires_at: l.expiresAt.toISOString(),
  })),
  criteria: m.criteria,
});

const PROJECTS_SHOWN = 50;

/** Projects (one or the first 50 by id) with mounts, lanes, inbox, next-step state and last checkpoint. */
export async function projectSummaries(ctx: ToolContext, projectId?: string) {
  const projects = await ctx.db
    .select()
    .from(haiProjects)
    .where(projectId === undefined ? undefined : eq(haiProjects.id, projectId))
    .orderBy(haiProjects.id)
    .limit(PROJECTS_SHOWN + 1);
  const truncated = projects.length > PROJECTS_SHOWN;
  const shown = projects.slice(0, PROJECTS_SHOWN);
  const ids = shown.map((p) => p.id);
  if (ids.length === 0) return { projects: [], truncated };
  const [mounts, lanes, inbox, proposals, checkpoints] = await Promise.all([
    ctx.db.select().from(haiMounts).where(inArray(haiMounts.projectId, ids)),
    ctx.db.select().from(haiLanes).where(inArray(haiLanes.projectId, ids)),
    ctx.db
      .select({ projectId: haiInbox.projectId, n: sql<number>`count(*)::int` })
      .from(haiInbox)
      .where(inArray(haiInbox.projectId, ids))
      .groupBy(haiInbox.projectId),
    ctx.db
      .select()
      .from(haiProposals)
      .where(and(inArray(haiProposals.projectId, ids), eq(haiProposals.state, 'pending'))),
    ctx.db
      .selectDistinctOn([haiCheckpoints.projectId])
      .from(haiCheckpoints)
      .where(inArray(haiCheckpoints.projectId, ids))
      .orderBy(haiCheckpoints.projectId, desc(haiCheckpoints.createdAt)),
  ]);
  return {
    truncated,
    projects: shown.map((p) => {
      const cp = checkpoints.find((c) => c.projectId === p.id);
      return {
        id: p.id,
        title: p.title,
        mounts: mounts
          .filter((m) => m.projectId === p.id)
          .map((m) => ({ device_id: m.deviceId, mount_path: m.mountPath })),
        lanes: {
          active: lanes
            .filter((l) => l.projectId === p.id && l.state === 'active')
            .map((l) => l.lane)
            .sort(),
          parked: lanes
            .filter((l) => l.projectId === p.id && l.state === 'parked')
            .map((l) => l.lane)
            .sort(),
        },
        inbox_items: inbox.find((i) => i.projectId === p.id)?.n ?? 0,
        pending_proposal_version: proposals.find((x) => x.projectId === p.id)?.version ?? null,
        last_checkpoint:
          cp === undefined
            ? null
            : { label: cp.label, summary: cp.summary, created_at: cp.createdAt.toISOString() },
      };
    }),
  };
}

/** How many live leases exist overall (for hai_health). */
export async function liveLeaseCount(ctx: ToolContext): Promise<number> {
  const [row] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(haiLeases)
    .innerJoin(
      haiMissions,
      and(eq(haiMissions.id, haiLeases.missionId), eq(haiMissions.leaseEpoch, haiLeases.epoch)),
    )
    .where(and(isNull(haiLeases.revokedAt), gt(haiLeases.expiresAt, ctx.now())));
  return row?.n ?? 0;
}
