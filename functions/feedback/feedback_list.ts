import * as z from 'zod';
import { caseIdInput, liveCase, loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { invalidArg } from '../../src/contract/errors.ts';
import { pagedOutput } from '../../src/contract/limits.ts';
import { and, asc, eq, gt, isNull, or, type SQL } from '../../src/db/orm.ts';
import { cases } from '../../src/db/schema/cases.ts';
import { chairFeedback, feedbackKinds } from '../../src/db/schema/review.ts';
import { blockKindInput, feedbackOutput, feedbackView } from '../../src/review/feedback.ts';

export const feedback_list = defineTool({
  name: 'feedback_list',
  title: 'The chair’s feedback',
  description: 'The chair’s remarks, oldest first, by case (general: about no case), kind of block, kind.',
  input: {
    case_id: caseIdInput.optional().describe('This case’s only'),
    general: z.boolean().optional().describe('true: remarks about no case'),
    block_kind: blockKindInput.optional().describe('This kind of block'),
    kind: z.enum(feedbackKinds).optional().describe('This kind'),
  },
  output: pagedOutput(feedbackOutput),
  mutates: false,
  pages: { key: z.tuple([z.int().min(0)]) },
  precheck(input) {
    if (input.general === true && input.case_id !== undefined)
      throw invalidArg('general', 'general remarks have no case: give case_id or general, not both');
  },
  async run({ ctx, input, page }) {
    if (input.case_id !== undefined) await loadLiveCase(ctx.db, input.case_id);
    // Remarks about a deleted case are unreachable with it.
    const where: (SQL | undefined)[] = [or(isNull(chairFeedback.caseId), liveCase)];
    if (input.case_id !== undefined) where.push(eq(chairFeedback.caseId, input.case_id));
    if (input.general === true) where.push(isNull(chairFeedback.caseId));
    if (input.block_kind !== undefined) where.push(eq(chairFeedback.blockKind, input.block_kind));
    if (input.kind !== undefined) where.push(eq(chairFeedback.kind, input.kind));
    if (page.after !== undefined) where.push(gt(chairFeedback.seq, page.after[0]));
    const rows = await ctx.db
      .select({ feedback: chairFeedback })
      .from(chairFeedback)
      .leftJoin(cases, eq(cases.id, chairFeedback.caseId))
      .where(and(...where))
      .orderBy(asc(chairFeedback.seq))
      .limit(page.limit + 1);
    return page.from(
      rows,
      (r) => [r.feedback.seq] as const,
      (r) => feedbackView(r.feedback),
    );
  },
});
