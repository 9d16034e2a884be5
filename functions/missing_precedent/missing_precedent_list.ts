import * as z from 'zod';
import { loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { createdAtKeyset, pagedOutput } from '../../src/contract/limits.ts';
import { and, eq, inArray, type SQL } from '../../src/db/orm.ts';
import { missingPrecedents } from '../../src/db/schema/precedents.ts';
import { missingStatuses } from '../../src/db/schema/vocabulary.ts';
import { missingOutput, missingView, reachableMissing } from '../../src/precedents/missing.ts';
import { numberKeys, numbersInput } from '../../src/precedents/views.ts';

const keyset = createdAtKeyset(missingPrecedents.createdAt, missingPrecedents.id);

export const missing_precedent_list = defineTool({
  name: 'missing_precedent_list',
  title: 'Missing precedents',
  description:
    'Rulings cited or needed but absent from the library, oldest first: open by default, or closed ' +
    '(found or dismissed); by case or number(s).',
  input: {
    status: z
      .enum([...missingStatuses, 'all'])
      .optional()
      .describe('Default open'),
    case_id: z.uuid().optional().describe('Only this case’s'),
    numbers: numbersInput.optional().describe('Only these numbers (any form, up to 20)'),
  },
  output: pagedOutput(missingOutput),
  mutates: false,
  pages: keyset.pages,
  async run({ ctx, input, page }) {
    const where: (SQL | undefined)[] = [reachableMissing()];
    const status = input.status ?? 'open';
    if (status !== 'all') where.push(eq(missingPrecedents.status, status));
    if (input.case_id !== undefined) {
      await loadLiveCase(ctx.db, input.case_id);
      where.push(eq(missingPrecedents.caseId, input.case_id));
    }
    if (input.numbers !== undefined)
      where.push(inArray(missingPrecedents.key, numberKeys('numbers', input.numbers)));
    if (page.after !== undefined) where.push(keyset.after(page.after));
    const rows = await ctx.db
      .select({ row: missingPrecedents, at: keyset.cursorAt })
      .from(missingPrecedents)
      .where(and(...where))
      .orderBy(missingPrecedents.createdAt, missingPrecedents.id)
      .limit(page.limit + 1);
    return page.from(
      rows,
      (r) => [r.at, r.row.id] as const,
      (r) => missingView(r.row),
    );
  },
});
