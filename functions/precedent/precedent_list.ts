import * as z from 'zod';
import { liveCase, loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { invalidArg } from '../../src/contract/errors.ts';
import { pagedOutput } from '../../src/contract/limits.ts';
import { and, asc, eq, gt, inArray, isNull, type SQL } from '../../src/db/orm.ts';
import { cases } from '../../src/db/schema/cases.ts';
import { casePrecedents } from '../../src/db/schema/holdings.ts';
import { citationKey, MAX_PROCEEDINGS, splitProceedings } from '../../src/legal/proceedings.ts';
import { precedentOutput, precedentView, sectionKey } from '../../src/precedents/case_precedents.ts';
import { resolveKeys } from '../../src/precedents/resolve.ts';

export const precedent_list = defineTool({
  name: 'precedent_list',
  title: 'Precedents',
  description:
    'The precedents pinned to a case’s decision, or, by citation, every live case the same ruling is ' +
    'pinned to (how cases are linked through a precedent). citation takes up to 20 numbers in any form.',
  input: {
    case_id: z.uuid().optional().describe('This case’s precedents'),
    citation: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .optional()
      .describe('Rulings by number, as written (up to 20 numbers, any quote marks)'),
    section: z.string().trim().min(1).max(100).optional().describe('Only this section'),
  },
  output: pagedOutput(precedentOutput),
  mutates: false,
  pages: { key: z.tuple([z.int().min(0)]) },
  async run({ ctx, input, page }) {
    if (input.case_id === undefined && input.citation === undefined) {
      throw invalidArg('case_id', 'give case_id, citation or both');
    }
    const where: (SQL | undefined)[] = [isNull(casePrecedents.detachedAt), liveCase];
    if (input.case_id !== undefined) {
      await loadLiveCase(ctx.db, input.case_id);
      where.push(eq(casePrecedents.caseId, input.case_id));
    }
    if (input.citation !== undefined) {
      const { keys: found } = splitProceedings(input.citation);
      const keys = found.length > 0 ? found : [citationKey(input.citation)];
      if (keys.length > MAX_PROCEEDINGS) {
        throw invalidArg('citation', `${keys.length} numbers; at most ${MAX_PROCEEDINGS} in one call`);
      }
      where.push(inArray(casePrecedents.citationKey, keys));
    }
    if (input.section !== undefined) where.push(eq(casePrecedents.sectionKey, sectionKey(input.section)));
    if (page.after !== undefined) where.push(gt(casePrecedents.seq, page.after[0]));
    const rows = await ctx.db
      .select({ p: casePrecedents, caseNumber: cases.caseNumber })
      .from(casePrecedents)
      .innerJoin(cases, eq(cases.id, casePrecedents.caseId))
      .where(and(...where))
      .orderBy(asc(casePrecedents.seq))
      .limit(page.limit + 1);
    const cited = await resolveKeys(
      ctx.db,
      rows.filter((r) => r.p.documentId === null).map((r) => r.p.citationKey),
    );
    return page.from(
      rows,
      (r) => [r.p.seq] as const,
      (r) => precedentView(r.p, r.caseNumber, cited),
    );
  },
});
