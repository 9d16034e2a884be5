import * as z from 'zod';
import { caseFieldsKey, caseIdInput, liveCase, loadLiveCase } from '../../src/cases/live.ts';
import { practiceAreaOf } from '../../src/cases/practice_areas.ts';
import { caseFields, caseOutput, caseStatusInput, caseView } from '../../src/cases/views.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { invalidArg, ToolError } from '../../src/contract/errors.ts';
import { and, eq, ne } from '../../src/db/orm.ts';
import { cases } from '../../src/db/schema/cases.ts';

export const case_update = defineTool({
  name: 'case_update',
  title: 'Change a case file',
  description:
    'Changes the given descriptive fields or status of a case (the case number is fixed; the outcome is ' +
    'outcome_set’s, owner-gated) and returns it with the fields changed. An archived case is read-only ' +
    '(invalid_state) until its status is set back.',
  input: {
    case_id: caseIdInput,
    ...caseFields,
    status: caseStatusInput.optional(),
  },
  output: z.object({
    case: caseOutput,
    changed: z.array(z.string()).max(20).describe('The fields this call set'),
  }),
  mutates: 'write',
  idempotencyKey: caseFieldsKey,
  setSemantics: true,
  async run({ ctx, input }) {
    const { case_id, ...changes } = input;
    const set = {
      title: changes.title,
      appellant: changes.appellant,
      respondent: changes.respondent,
      committee: changes.committee,
      practiceArea: changes.practice_area === undefined ? undefined : practiceAreaOf(changes.practice_area),
      propertyAddress: changes.property_address,
      notes: changes.notes,
      status: changes.status,
    };
    const fields = Object.entries(changes)
      .filter(([, v]) => v !== undefined)
      .map(([k]) => k);
    if (fields.length === 0) {
      throw invalidArg('(arguments)', 'give at least one field to change');
    }
    // One round trip on the common path: an archived case only changes when the call un-archives it.
    const unarchives = changes.status !== undefined && changes.status !== 'archived';
    const rows = await ctx.db
      .update(cases)
      .set({ ...set, updatedAt: ctx.now() })
      .where(and(eq(cases.id, case_id), liveCase, unarchives ? undefined : ne(cases.status, 'archived')))
      .returning();
    const row = rows[0];
    if (row === undefined) {
      // Nothing changed: tell an unreachable case (not_found) from an archived one (invalid_state).
      const current = await loadLiveCase(ctx.db, case_id);
      throw new ToolError('invalid_state', `Case ${current.caseNumber} is archived and read-only`, {
        details: { case_id, status: current.status },
        hint: 'Set status back to "decided" (with the owner’s agreement) before changing other fields.',
      });
    }
    return ok(
      { case: caseView(row), changed: fields },
      `Case ${row.caseNumber} updated (${fields.join(', ')})`,
    );
  },
});
