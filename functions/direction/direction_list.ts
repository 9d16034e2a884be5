import * as z from 'zod';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { pagedOutput } from '../../src/contract/limits.ts';
import { and, asc, eq, gt, type SQL } from '../../src/db/orm.ts';
import { directionStatuses, directions } from '../../src/db/schema/review.ts';
import { directionOutput, directionView } from '../../src/review/directions.ts';

export const direction_list = defineTool({
  name: 'direction_list',
  title: 'Directions',
  description: 'A case’s directions in order, with outcome, rationale, arguments and status (one approved).',
  input: {
    case_id: caseIdInput,
    status: z.enum(directionStatuses).optional().describe('Only this status'),
  },
  output: pagedOutput(directionOutput),
  mutates: false,
  pages: { key: z.tuple([z.int().min(0)]) },
  async run({ ctx, input, page }) {
    await loadLiveCase(ctx.db, input.case_id);
    const where: (SQL | undefined)[] = [eq(directions.caseId, input.case_id)];
    if (input.status !== undefined) where.push(eq(directions.status, input.status));
    if (page.after !== undefined) where.push(gt(directions.seq, page.after[0]));
    const rows = await ctx.db
      .select()
      .from(directions)
      .where(and(...where))
      .orderBy(asc(directions.seq))
      .limit(page.limit + 1);
    return page.from(rows, (r) => [r.seq] as const, directionView);
  },
});
