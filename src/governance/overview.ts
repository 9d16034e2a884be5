// Missions as a whole, for the owner: the list with the inbox, and one mission with its current contract, the
// evidence recorded under it and the owner's confirmations, its live session leases, its parked items, its
// project's inbox and next step. Bounded: the latest `limit` rows of each.
import { and, desc, eq, sql } from '../db/orm.ts';
import { haiContracts, haiEvidence, haiMissions, haiParkedItems } from '../db/schema/hai.ts';
import type { Db } from '../db/types.ts';
import { nextStepOf } from './artifacts.ts';
import { confirmationsOf } from './confirmations.ts';
import { latestInbox } from './inbox.ts';
import { liveLeasesOf } from './leases.ts';
import { findMission } from './missions.ts';

/** Missions, the active ones first, then the latest opened. */
export const missionList = (db: Db, limit: number) =>
  db
    .select()
    .from(haiMissions)
    .orderBy(sql`${haiMissions.state} = 'active' desc`, desc(haiMissions.openedAt))
    .limit(limit);

/** Every project's latest inbox items (hai_park), newest first: the missions page shows them. */
export const inboxOverview = (db: Db, limit: number) => latestInbox(db, null, limit);

/** One mission and what the owner decides on; null when there is no such mission. */
export async function missionOverview(db: Db, id: string, now: Date, limit: number) {
  const mission = await findMission(db, id);
  if (mission === undefined) return null;
  const [contract, evidence, leases, parked, confirmations, inbox] = await Promise.all([
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
    confirmationsOf(db, id, mission.currentVersion),
    mission.projectId === null ? Promise.resolve([]) : latestInbox(db, mission.projectId, limit),
  ]);
  const nextStep =
    mission.projectId === null
      ? null
      : { projectId: mission.projectId, ...(await nextStepOf(db, mission.projectId)) };
  return { mission, contract, evidence, leases, parked, confirmations, inbox, nextStep };
}

export type MissionOverview = NonNullable<Awaited<ReturnType<typeof missionOverview>>>;
