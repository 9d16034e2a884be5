import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { ToolError } from '../../src/contract/errors.ts';
import { type CaseRow, caseOutcomes, caseStatuses, cases } from '../../src/db/schema/cases.ts';
import type { Db } from '../../src/db/types.ts';

/** The case as every case tool returns it. */
export const caseView = (row: CaseRow) => ({
  id: row.id,
  case_number: row.caseNumber,
  title: row.title,
  appellant: row.appellant,
  respondent: row.respondent,
  committee: row.committee,
  practice_area: row.practiceArea,
  property_address: row.propertyAddress,
  status: row.status,
  outcome: row.outcome,
  notes: row.notes,
  has_final_text: row.finalText !== null,
  created_by: row.createdBy,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

export type CaseView = ReturnType<typeof caseView>;

export const caseIdInput = z.uuid().describe('The case id (a UUID returned by case_create or case_list)');

const optionalText = (max: number, what: string) =>
  z.string().trim().min(1).max(max).optional().describe(what);

/** The descriptive fields case_create sets and case_update changes. */
export const caseFields = {
  title: optionalText(300, 'Short title of the appeal, e.g. the property or the dispute (Hebrew is fine)'),
  appellant: optionalText(300, 'The appellant(s) (העוררים)'),
  respondent: optionalText(300, 'The respondent(s), usually the local planning committee (המשיבה)'),
  committee: optionalText(200, 'The local or district committee whose decision is appealed'),
  practice_area: optionalText(100, 'Practice area, e.g. "betterment levy" (היטל השבחה), "permit", "plan"'),
  property_address: optionalText(300, 'Address or block/parcel (גוש/חלקה) of the property'),
  notes: z.string().max(10_000).optional().describe('Free notes for the team'),
};

export const caseStatusInput = z.enum(caseStatuses).describe('open → drafting → decided → archived');
export const caseOutcomeInput = z
  .enum(caseOutcomes)
  .describe('rejection (דחייה), partial_acceptance (קבלה חלקית) or full_acceptance (קבלה מלאה)');

/** C7: a case is reachable when it exists and is not deleted; otherwise it is not_found. */
export async function loadLiveCase(db: Db, id: string): Promise<CaseRow> {
  const rows = await db
    .select()
    .from(cases)
    .where(and(eq(cases.id, id), isNull(cases.deletedAt)))
    .limit(1);
  const row = rows[0];
  if (row === undefined) {
    throw new ToolError('not_found', `No case with id ${id}`, {
      details: { case_id: id },
      hint: 'Use case_list to find the case id; deleted cases are not reachable.',
    });
  }
  return row;
}
