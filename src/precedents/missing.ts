// Missing precedents (rulings cited but not in the library) as the missing_precedent_* tools return and load
// them: a row is reachable while it has no case or its case is live.

import * as z from 'zod';
import { ToolError } from '../contract/errors.ts';
import { and, eq, isNull, or, sql } from '../db/orm.ts';
import { cases } from '../db/schema/cases.ts';
import { type MissingPrecedentRow, missingPrecedents } from '../db/schema/precedents.ts';
import { missingResolutions, missingStatuses } from '../db/schema/vocabulary.ts';
import type { Db } from '../db/types.ts';

export const missingOutput = z.object({
  missing_precedent_id: z.uuid(),
  key: z.string(),
  citation: z.string(),
  case_id: z.uuid().nullable(),
  context: z.string(),
  status: z.enum(missingStatuses),
  resolution: z.enum(missingResolutions).nullable(),
  document_id: z.uuid().nullable(),
  reason: z.string().nullable(),
  created_by: z.string(),
  closed_by: z.string().nullable(),
  created_at: z.string(),
});

export const missingView = (r: MissingPrecedentRow): z.output<typeof missingOutput> => ({
  missing_precedent_id: r.id,
  key: r.key,
  citation: r.citation,
  case_id: r.caseId,
  context: r.context,
  status: r.status,
  resolution: r.resolution,
  document_id: r.documentId,
  reason: r.reason,
  created_by: r.createdBy,
  closed_by: r.closedBy,
  created_at: r.createdAt.toISOString(),
});

/** Not tied to a case, or tied to a live one. */
export const reachableMissing = () =>
  or(
    isNull(missingPrecedents.caseId),
    sql`exists (select 1 from ${cases} where ${cases.id} = ${missingPrecedents.caseId} and ${cases.deletedAt} is null)`,
  );

export async function loadMissing(db: Db, id: string): Promise<MissingPrecedentRow> {
  const [row] = await db
    .select()
    .from(missingPrecedents)
    .where(and(eq(missingPrecedents.id, id), reachableMissing()));
  if (row === undefined) {
    throw new ToolError('not_found', `No missing precedent with id ${id}`, {
      details: { missing_precedent_id: id },
      hint: 'missing_precedent_list shows them; those of a deleted case are not reachable.',
    });
  }
  return row;
}
