// What the console reads, straight from the tables (reads change nothing; every change the owner makes goes
// through a tool, src/console/act.ts). Bounded like every list: the console shows the latest rows.
import { and, asc, desc, eq, gt, isNull, sql } from '../db/orm.ts';
import { cases } from '../db/schema/cases.ts';
import { documents } from '../db/schema/documents.ts';
import {
  haiArtifacts,
  haiContracts,
  haiEvidence,
  haiLeases,
  haiMissions,
  haiParkedItems,
  haiProposals,
} from '../db/schema/hai.ts';
import type { Db } from '../db/types.ts';

export const LIST_LIMIT = 100;

export const missionList = (db: Db) =>
  db
    .select()
    .from(haiMissions)
    .orderBy(sql`${haiMissions.state} = 'active' desc`, desc(haiMissions.openedAt))
    .limit(LIST_LIMIT);

export async function missionDetail(db: Db, id: string, now: Date) {
  const mission = (await db.select().from(haiMissions).where(eq(haiMissions.id, id)).limit(1))[0];
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
      .limit(LIST_LIMIT),
    // Active: not revoked, not expired, of the mission's current epoch (an older epoch can never act).
    db
      .select()
      .from(haiLeases)
      .where(
        and(
          eq(haiLeases.missionId, id),
          eq(haiLeases.epoch, mission.leaseEpoch),
          isNull(haiLeases.revokedAt),
          gt(haiLeases.expiresAt, now),
        ),
      )
      .orderBy(asc(haiLeases.issuedAt))
      .limit(LIST_LIMIT),
    db
      .select()
      .from(haiParkedItems)
      .where(eq(haiParkedItems.missionId, id))
      .orderBy(desc(haiParkedItems.parkedAt))
      .limit(LIST_LIMIT),
  ]);
  const nextStep = mission.projectId === null ? null : await nextStepOf(db, mission.projectId);
  return { mission, contract, evidence, leases, parked, nextStep };
}

/** The canonical next step (NEXT_STEP.md) and the proposal waiting for the owner, with their texts. */
async function nextStepOf(db: Db, projectId: string) {
  const [accepted] = await db
    .select()
    .from(haiArtifacts)
    .where(and(eq(haiArtifacts.projectId, projectId), eq(haiArtifacts.name, 'NEXT_STEP.md')))
    .orderBy(desc(haiArtifacts.version))
    .limit(1);
  const [proposed] = await db
    .select({ proposal: haiProposals, text: haiArtifacts.content })
    .from(haiProposals)
    .innerJoin(
      haiArtifacts,
      and(
        eq(haiArtifacts.projectId, haiProposals.projectId),
        eq(haiArtifacts.name, 'NEXT_STEP.proposed.md'),
        eq(haiArtifacts.version, haiProposals.version),
      ),
    )
    .where(and(eq(haiProposals.projectId, projectId), eq(haiProposals.state, 'pending')))
    .limit(1);
  return { projectId, accepted: accepted ?? null, proposed: proposed ?? null };
}

export const caseList = (db: Db) =>
  db
    .select({
      id: cases.id,
      caseNumber: cases.caseNumber,
      title: cases.title,
      status: cases.status,
      outcome: cases.outcome,
      updatedAt: cases.updatedAt,
    })
    .from(cases)
    .where(isNull(cases.deletedAt))
    .orderBy(desc(cases.updatedAt))
    .limit(LIST_LIMIT);

/** A live case (deleted ones are unreachable here too) and its documents. */
export async function caseDetail(db: Db, id: string) {
  const row = (
    await db
      .select()
      .from(cases)
      .where(and(eq(cases.id, id), isNull(cases.deletedAt)))
      .limit(1)
  )[0];
  if (row === undefined) return null;
  const docs = await db
    .select({
      id: documents.id,
      title: documents.title,
      filename: documents.filename,
      status: documents.status,
      pageCount: documents.pageCount,
      createdAt: documents.createdAt,
      createdBy: documents.createdBy,
    })
    .from(documents)
    .where(eq(documents.caseId, id))
    .orderBy(asc(documents.createdAt))
    .limit(LIST_LIMIT);
  return { row, docs };
}

export type CaseDetail = NonNullable<Awaited<ReturnType<typeof caseDetail>>>;
export type MissionDetail = NonNullable<Awaited<ReturnType<typeof missionDetail>>>;
