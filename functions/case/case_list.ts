import * as z from 'zod';
import { liveCase } from '../../src/cases/live.ts';
import { outcomeInput, outcomeOf } from '../../src/cases/outcomes.ts';
import { practiceAreaInput, practiceAreaOf } from '../../src/cases/practice_areas.ts';
import { caseStatusInput, caseSummary, caseSummaryOutput } from '../../src/cases/views.ts';
import { defineTool } from '../../src/contract/define.ts';
import { createdAtKeyset, pagedOutput } from '../../src/contract/limits.ts';
import { and, asc, eq, getTableColumns, ilike, or, type SQL } from '../../src/db/orm.ts';
import { cases } from '../../src/db/schema/cases.ts';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);

const keyset = createdAtKeyset(cases.createdAt, cases.id);

export const case_list = defineTool({
  name: 'case_list',
  title: 'List case files',
  description:
    'Lists case files, oldest first, filtered by status, outcome, practice area or a text in the case ' +
    'number or title. Returns case summaries (case_get has every field). Deleted cases are never ' +
    'listed.',
  input: {
    status: caseStatusInput.optional(),
    outcome: outcomeInput.optional(),
    practice_area: practiceAreaInput.optional(),
    text: z.string().trim().min(1).max(200).optional().describe('Text in the case number or title'),
  },
  output: pagedOutput(caseSummaryOutput),
  mutates: false,
  pages: keyset.pages,
  async run({ ctx, input, page }) {
    const where: (SQL | undefined)[] = [liveCase];
    if (input.status !== undefined) where.push(eq(cases.status, input.status));
    if (input.outcome !== undefined) where.push(eq(cases.outcome, outcomeOf(input.outcome)));
    if (input.practice_area !== undefined)
      where.push(eq(cases.practiceArea, practiceAreaOf(input.practice_area)));
    if (input.text !== undefined) {
      const pattern = `%${escapeLike(input.text)}%`;
      where.push(or(ilike(cases.caseNumber, pattern), ilike(cases.title, pattern)));
    }
    if (page.after !== undefined) where.push(keyset.after(page.after));
    const rows = await ctx.db
      .select({ ...getTableColumns(cases), cursorAt: keyset.cursorAt })
      .from(cases)
      .where(and(...where))
      .orderBy(asc(cases.createdAt), asc(cases.id))
      .limit(page.limit + 1);
    return page.from(rows, (r) => [r.cursorAt, r.id] as const, caseSummary);
  },
});
