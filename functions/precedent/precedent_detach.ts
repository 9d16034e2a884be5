import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { ToolError } from '../../src/contract/errors.ts';
import { and, eq, isNull, sql } from '../../src/db/orm.ts';
import { cases } from '../../src/db/schema/cases.ts';
import { casePrecedents } from '../../src/db/schema/holdings.ts';

export const precedent_detach = defineTool({
  name: 'precedent_detach',
  title: 'Unpin a precedent',
  description:
    'Removes a precedent from its case’s decision (precedent_list finds the id); the same quote can be ' +
    'attached again later.',
  input: { precedent_id: z.uuid().describe('The precedent (precedent_list)') },
  output: z.object({
    precedent_id: z.uuid(),
    case_id: z.uuid(),
    detached_at: z.iso.datetime(),
  }),
  mutates: 'destructive',
  idempotencyKey: { describe: 'precedent_id', of: (i) => i.precedent_id },
  async run({ ctx, input }) {
    const detachedAt = ctx.now();
    const rows = await ctx.db
      .update(casePrecedents)
      .set({ detachedAt, detachedBy: ctx.agent })
      .where(
        and(
          eq(casePrecedents.id, input.precedent_id),
          isNull(casePrecedents.detachedAt),
          // C7: a deleted case's precedents are unreachable with it.
          sql`exists (select 1 from ${cases} where ${cases.id} = ${casePrecedents.caseId} and ${cases.deletedAt} is null)`,
        ),
      )
      .returning({ id: casePrecedents.id, caseId: casePrecedents.caseId });
    const row = rows[0];
    if (row === undefined) {
      throw new ToolError('not_found', `No precedent with id ${input.precedent_id}`, {
        details: { precedent_id: input.precedent_id },
        hint: 'It does not exist, was already detached, or its case was deleted; precedent_list shows the live ones.',
      });
    }
    return ok(
      { precedent_id: row.id, case_id: row.caseId, detached_at: detachedAt.toISOString() },
      'Precedent detached',
    );
  },
});
