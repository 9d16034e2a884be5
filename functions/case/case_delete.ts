import * as z from 'zod';
import { caseIdInput, liveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { ToolError } from '../../src/contract/errors.ts';
import { and, eq } from '../../src/db/orm.ts';
import { cases } from '../../src/db/schema/cases.ts';

export const case_delete = defineTool({
  name: 'case_delete',
  title: 'Delete a case file',
  description:
    'Deletes a case: no tool reaches it or its documents afterwards (the data is kept for audit). ' +
    'Owner-gated. To close finished work, set status "archived" with case_update instead.',
  input: { case_id: caseIdInput },
  output: z.object({
    case_id: z.uuid(),
    case_number: z.string(),
    deleted_at: z.iso.datetime().describe('When the case was deleted'),
  }),
  mutates: 'destructive',
  ownerGate: true,
  idempotencyKey: { describe: 'case_id', of: (input) => input.case_id },
  async run({ ctx, input, gate }) {
    const deletedAt = ctx.now();
    const rows = await ctx.db
      .update(cases)
      .set({ deletedAt, deletedBy: ctx.agent, deleteReason: gate?.reason ?? null })
      .where(and(eq(cases.id, input.case_id), liveCase))
      .returning({ id: cases.id, caseNumber: cases.caseNumber });
    const row = rows[0];
    if (row === undefined) {
      throw new ToolError('not_found', `No case with id ${input.case_id}`, {
        details: { case_id: input.case_id },
        hint: 'The case does not exist or was already deleted; case_list shows live cases.',
      });
    }
    return ok(
      { case_id: row.id, case_number: row.caseNumber, deleted_at: deletedAt.toISOString() },
      `Case ${row.caseNumber} deleted (data kept)`,
    );
  },
});
