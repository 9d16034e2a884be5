// What the console reads (reads change nothing; every change the owner makes goes through a tool,
// src/console/act.ts): missions through src/governance/, cases through src/cases/. Bounded like every list:
// the console shows the latest rows.
import { findLiveCase } from '../cases/live.ts';
import { and, asc, eq } from '../db/orm.ts';
import { documents } from '../db/schema/documents.ts';
import type { Db } from '../db/types.ts';
import { liveDocument } from '../documents/views.ts';
import { missionList as governanceMissions, inboxOverview, missionOverview } from '../governance/overview.ts';

export const LIST_LIMIT = 100;

export const missionList = (db: Db) => governanceMissions(db, LIST_LIMIT);

export const inboxList = (db: Db) => inboxOverview(db, LIST_LIMIT);

export const missionDetail = (db: Db, id: string, now: Date) => missionOverview(db, id, now, LIST_LIMIT);

/** A live case (deleted ones are unreachable here too) and its documents. */
export async function caseDetail(db: Db, id: string) {
  const row = await findLiveCase(db, id);
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
    .where(and(eq(documents.caseId, id), liveDocument))
    .orderBy(asc(documents.createdAt))
    .limit(LIST_LIMIT);
  return { row, docs };
}

export type CaseDetail = NonNullable<Awaited<ReturnType<typeof caseDetail>>>;
export type { MissionOverview as MissionDetail } from '../governance/overview.ts';
