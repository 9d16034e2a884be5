import * as z from 'zod';
import { ToolError } from '../contract/errors.ts';
import { stableStringify } from '../contract/hash.ts';
import { and, eq, isNull } from '../db/orm.ts';
import { type CaseRow, cases } from '../db/schema/cases.ts';
import type { Db } from '../db/types.ts';

export const caseIdInput = z.uuid().describe('The case id (case_list finds it)');

/** A case is live while it is not deleted: the condition every read of a case's rows joins on. */
export const liveCase = isNull(cases.deletedAt);

/** A live case by id, or undefined. */
export async function findLiveCase(db: Db, id: string): Promise<CaseRow | undefined> {
  const rows = await db
    .select()
    .from(cases)
    .where(and(eq(cases.id, id), liveCase))
    .limit(1);
  return rows[0];
}

/** C7: a case is reachable when it exists and is not deleted; otherwise it is not_found. */
export async function loadLiveCase(db: Db, id: string): Promise<CaseRow> {
  const row = await findLiveCase(db, id);
  if (row === undefined) {
    throw new ToolError('not_found', `No case with id ${id}`, {
      details: { case_id: id },
      hint: 'Use case_list to find the case id; deleted cases are not reachable.',
    });
  }
  return row;
}

/**
 * The idempotency key of a tool that sets fields of a case (case_update, case_dates_set, case_panel_set):
 * setting is idempotent by itself, so the key only makes a concurrent duplicate wait (in_progress).
 */
export const caseFieldsKey = {
  describe: 'case_id + the fields given',
  of: (input: { case_id: string }) => `${input.case_id}:${stableStringify(input)}`,
};
