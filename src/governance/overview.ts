// Missions as a whole, for the owner: the list, and one mission with its current contract, the evidence
// recorded under it, its live session leases, its parked items and its project's next step. Bounded: the
// latest `limit` rows of each.
import { and, desc, eq, sql } from '../db/orm.ts';
import { haiContracts, haiEvidence, haiMissions, haiParkedItems } from '../db/schema/hai.ts';
import type { Db } from '../db/types.ts';
import { nextStepOf } from './artifacts.ts';
import { liveLeasesOf } from './leases.ts';
import { findMission } from './missions.ts';

/** Missions, the active ones first, then the latest opened. */
export const missionList = (db: Db, limit: number) =>
  db
    .select()
    .from(haiMissions)
    .orderBy(sql`${haiMissions.state} = 'active' desc`, desc(haiMissions.openedAt))
    .limit(limit);

/** One mission and what the owner decides on; null when there is no such mission. */
export async function missionOverview(db: Db, id: string, now: Date, limit: number) {
  const mission = await findMission(db, id);
  if (mission === undefined) return null;
  const [contract, evidence, leases, parked] = await Promise.all([
    db
      .select()
      .from(haiContracts)
      .where(and(eq(haiContracts.missionId, id), eq(haiContracts.version, mission.currentVersion)))
      .limit(1)
      .then((r) => r[0]),
    db
      .select()
      .from(haiEvidence)
      .where(and(eq(haiEvidence.missionId, id), eq(haiEvidence.contractVersion, mission.currentVersion)))
      .orderBy(desc(haiEvidence.recordedAt))
      .limit(limit),
    liveLeasesOf(db, mission, now, limit),
    db
      .select()
      .from(haiParkedItems)
      .where(eq(haiParkedItems.missionId, id))
      .orderBy(desc(haiParkedItems.parkedAt))
      .limit(limit),
  ]);
  const nextStep =
    mission.projectId === null
      ? null
      : { projectId: mission.projectId, ...(await nextStepOf(db, mission.projectId)) };
  return { mission, contract, evidence, leases, parked, nextStep };
}

export type MissionOverview = NonNullable<Awaited<ReturnType<typeof missionOverview>>>;
