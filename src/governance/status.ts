// Read-only views of the governance state shared by hai_status, hai_health and hai_recover, with the
// shapes they return. Every list here is cut to a bound the output schemas declare.

import * as z from 'zod';
import { liveCase } from '../cases/live.ts';
import type { ToolContext } from '../contract/define.ts';
import { and, asc, desc, eq, inArray, isNull, sql } from '../db/orm.ts';
import { cases } from '../db/schema/cases.ts';
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
} from '../db/schema/hai.ts';
import { caseState, stageOf, type WorkflowStage, workflowStages } from '../review/workflow.ts';
import { criterionOutput, MAX_CRITERIA, MAX_SCOPE_LABELS, MAX_SESSIONS } from './contracts.ts';
import { leaseIsLive } from './leases.ts';
import { MAX_ACTIVE_LANES } from './projects.ts';

/** How many projects, active missions, mounts per project and parked lanes per project are shown. */
export const PROJECTS_SHOWN = 50;
export const MISSIONS_SHOWN = 50;
const MOUNTS_SHOWN = 20;
const PARKED_SHOWN = 20;

const upDown = z.enum(['up', 'down']);

export const healthOutput = z.object({
  database: upDown.describe('Whether PostgreSQL answers'),
  kv: z
    .object({
      status: upDown.describe('Whether the key-value store answers'),
      kind: z.string().describe('Which store: "postgres" (a table) or "upstash"'),
    })
    .describe('The key-value store, where session leases are cached'),
});

export type Health = z.output<typeof healthOutput>;

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

/**
 * Active missions (optionally of one project; the first MISSIONS_SHOWN by opening time) with their current
 * contract, the leases of the current epoch not revoked (live by expiry, stale newest first) and evidence.
 */
export async function activeMissions(ctx: ToolContext, projectId?: string) {
  const now = ctx.now();
  const rows = await ctx.db
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
    .orderBy(asc(haiMissions.openedAt), asc(haiMissions.id))
    .limit(MISSIONS_SHOWN + 1);
  const truncated = rows.length > MISSIONS_SHOWN;
  const missions = rows.slice(0, MISSIONS_SHOWN);
  if (missions.length === 0) return { missions: [], truncated };
  const ids = missions.map((m) => m.mission.id);
  const leases = await ctx.db
    .select()
    .from(haiLeases)
    .where(and(inArray(haiLeases.missionId, ids), isNull(haiLeases.revokedAt)))
    .orderBy(asc(haiLeases.expiresAt), asc(haiLeases.id));
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
  return {
    truncated,
    missions: missions.map(({ mission, contract }) => {
      const mine = leases.filter((l) => l.missionId === mission.id && l.epoch === mission.leaseEpoch);
      const live = mine.filter((l) => l.expiresAt.getTime() > now.getTime());
      // Newest first: the sessions that ended last are the ones likely to go on.
      const stale = mine.filter((l) => l.expiresAt.getTime() <= now.getTime()).reverse();
      const ev = evidence.filter((e) => e.missionId === mission.id && e.version === mission.currentVersion);
      return {
        mission,
        contract,
        expired: contract.expiresAt.getTime() <= now.getTime(),
        // At most the contract's cap by construction (counted and inserted under the mission row lock).
        live: live.slice(0, MAX_SESSIONS),
        stale,
        criteria: contract.criteria.map((c) => {
          const e = ev.find((x) => x.criterionId === c.id);
          return {
            ...c,
            evidence: e === undefined ? ('none' as const) : e.pass ? ('pass' as const) : ('fail' as const),
          };
        }),
      };
    }),
  };
}

export type ActiveMission = Awaited<ReturnType<typeof activeMissions>>['missions'][number];

const evidenceState = z
  .enum(['none', 'fail', 'pass'])
  .describe('The best evidence recorded under the current version: pass, fail, or none');

/** An active mission as hai_status shows it. */
export const missionSummaryOutput = z.object({
  id: z.uuid().describe('The mission id'),
  name: z.string().describe('Its short unique name'),
  title: z.string().describe('What the mission is, for people'),
  project_id: z.string().nullable().describe('The project it works on'),
  state: z
    .enum(['active', 'active (expired)'])
    .describe('"active (expired)" once past its expiry: recontract or close it'),
  contract_version: z.int().min(1).describe('The current version, which hai_authorize_session needs'),
  goal: z.string().describe('What the mission must achieve'),
  in_scope: z.array(z.string()).max(MAX_SCOPE_LABELS).describe('Activity labels the mission allows'),
  out_of_scope: z.array(z.string()).max(MAX_SCOPE_LABELS).describe('Activity labels outside it'),
  expires_at: z.iso.datetime().describe('When the mission expires'),
  max_sessions: z.int().min(1).max(MAX_SESSIONS).describe('How many sessions may be live at once'),
  live_sessions: z
    .array(
      z.object({
        lease_id: z.uuid(),
        agent: z.string(),
        device_id: z.string().nullable(),
        harness_id: z.string().nullable(),
        expires_at: z.iso.datetime(),
      }),
    )
    .max(MAX_SESSIONS)
    .describe('The live session leases'),
  criteria: z
    .array(criterionOutput.extend({ evidence: evidenceState }))
    .max(MAX_CRITERIA)
    .describe('Acceptance criteria of the current version with their evidence'),
});

export const missionSummary = (m: ActiveMission): z.input<typeof missionSummaryOutput> => ({
  id: m.mission.id,
  name: m.mission.name,
  title: m.mission.title,
  project_id: m.mission.projectId,
  state: m.expired ? 'active (expired)' : 'active',
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

/** A project as hai_status shows it. */
export const projectSummaryOutput = z.object({
  id: z.string().describe('The project id'),
  title: z.string().nullable().describe('Its human title'),
  mounts: z
    .array(z.object({ device_id: z.string(), mount_path: z.string() }))
    .max(MOUNTS_SHOWN)
    .describe(`Devices it is bound on (the first ${MOUNTS_SHOWN} by device id)`),
  lanes: z
    .object({
      active: z.array(z.string()).max(MAX_ACTIVE_LANES).describe('Active focus lanes'),
      parked: z
        .array(z.string())
        .max(PARKED_SHOWN)
        .describe(`Parked focus lanes (the first ${PARKED_SHOWN} by name)`),
    })
    .describe('Focus lanes by state'),
  inbox_items: z.int().min(0).describe('How many ideas are parked in its inbox'),
  pending_proposal_version: z
    .int()
    .nullable()
    .describe('The next-step proposal waiting for the owner (hai_accept_next_step takes it), else null'),
  last_checkpoint: z
    .object({ label: z.string(), summary: z.string(), created_at: z.iso.datetime() })
    .nullable()
    .describe('The latest checkpoint, else null'),
  case: z
    .object({ case_id: z.uuid(), case_number: z.string(), stage: z.enum(workflowStages) })
    .nullable()
    .describe('The case the project is bound to and its stage (workflow_status has the rest)'),
});

/** Projects (one or the first PROJECTS_SHOWN by id) with mounts, lanes, inbox, next-step state and last checkpoint. */
export async function projectSummaries(
  ctx: ToolContext,
  projectId?: string,
): Promise<{ projects: z.input<typeof projectSummaryOutput>[]; truncated: boolean }> {
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
    ctx.db.select().from(haiMounts).where(inArray(haiMounts.projectId, ids)).orderBy(asc(haiMounts.deviceId)),
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
  // The stage of each bound case (a deleted case shows as none).
  const stages = new Map<string, { case_id: string; case_number: string; stage: WorkflowStage }>();
  for (const caseId of new Set(shown.flatMap((p) => (p.caseId === null ? [] : [p.caseId])))) {
    const [c] = await ctx.db
      .select()
      .from(cases)
      .where(and(eq(cases.id, caseId), liveCase));
    if (c === undefined) continue;
    const { stage } = stageOf(c, await caseState(ctx.db, c));
    stages.set(caseId, { case_id: c.id, case_number: c.caseNumber, stage });
  }
  const lanesOf = (id: string, state: 'active' | 'parked', max: number) =>
    lanes
      .filter((l) => l.projectId === id && l.state === state)
      .map((l) => l.lane)
      .sort()
      .slice(0, max);
  return {
    truncated,
    projects: shown.map((p) => {
      const cp = checkpoints.find((c) => c.projectId === p.id);
      return {
        id: p.id,
        title: p.title,
        mounts: mounts
          .filter((m) => m.projectId === p.id)
          .slice(0, MOUNTS_SHOWN)
          .map((m) => ({ device_id: m.deviceId, mount_path: m.mountPath })),
        lanes: {
          active: lanesOf(p.id, 'active', MAX_ACTIVE_LANES),
          parked: lanesOf(p.id, 'parked', PARKED_SHOWN),
        },
        inbox_items: inbox.find((i) => i.projectId === p.id)?.n ?? 0,
        pending_proposal_version: proposals.find((x) => x.projectId === p.id)?.version ?? null,
        last_checkpoint:
          cp === undefined
            ? null
            : { label: cp.label, summary: cp.summary, created_at: cp.createdAt.toISOString() },
        case: p.caseId === null ? null : (stages.get(p.caseId) ?? null),
      };
    }),
  };
}

/** How many live leases exist overall (for hai_health). */
export async function liveLeaseCount(ctx: ToolContext): Promise<number> {
  const [row] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(haiLeases)
    .innerJoin(haiMissions, eq(haiMissions.id, haiLeases.missionId))
    .where(leaseIsLive(haiMissions.leaseEpoch, ctx.now()));
  return row?.n ?? 0;
}
