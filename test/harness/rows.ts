// Direct reads of what a tool wrote, for assertions that go past the envelope.
import { asc, eq, gt, sql } from 'drizzle-orm';
import { auditLog } from '../../src/db/schema/audit_log.ts';
import { cases } from '../../src/db/schema/cases.ts';
import type { Db } from '../../src/db/types.ts';

/** Marks the audit log now; the returned function reads the rows written since, oldest first. */
export async function auditMark(db: Db) {
  const [row] = await db.select({ id: sql<number>`coalesce(max(${auditLog.id}), 0)::int` }).from(auditLog);
  const since = row?.id ?? 0;
  return () => db.select().from(auditLog).where(gt(auditLog.id, since)).orderBy(asc(auditLog.id));
}

/** The stored row of a case, deleted or not. */
export const caseRow = async (db: Db, id: string) =>
  (await db.select().from(cases).where(eq(cases.id, id)))[0];
