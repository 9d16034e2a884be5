// A case the decision may still be drafted in: live, and not decided or archived.

import { loadLiveCase } from '../cases/live.ts';
import { ToolError } from '../contract/errors.ts';
import type { CaseRow } from '../db/schema/cases.ts';
import type { Db } from '../db/types.ts';

export async function loadDraftableCase(db: Db, caseId: string): Promise<CaseRow> {
  const row = await loadLiveCase(db, caseId);
  if (row.status === 'decided' || row.status === 'archived') {
    throw new ToolError('invalid_state', `Case ${row.caseNumber} is ${row.status}: its draft is closed`, {
      details: { case_id: row.id, status: row.status },
      hint: 'The final version was taken in; case_final_text_get reads it.',
    });
  }
  return row;
}
