import * as z from 'zod';
import { claimOutput, claimView, partyInput } from '../../src/analysis/views.ts';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { pagedOutput } from '../../src/contract/limits.ts';
import { and, asc, eq, gt, type SQL } from '../../src/db/orm.ts';
import { claimStatuses, claims } from '../../src/db/schema/analysis.ts';

export const claim_list = defineTool({
  name: 'claim_list',
  title: 'Claims',
  description:
    'A case’s claims and relief requests in order, found by rule or added by agents: party, status, ' +
    'the agent’s wording and reason beside the original, and where each is written.',
  input: {
    case_id: caseIdInput,
    party: partyInput.optional().describe('Only this party’s'),
    status: z.enum(claimStatuses).optional().describe('Only this status'),
    document_id: z.uuid().optional().describe('Only this document’s'),
  },
  output: pagedOutput(claimOutput),
  mutates: false,
  pages: { key: z.tuple([z.int().min(0)]) },
  async run({ ctx, input, page }) {
    await loadLiveCase(ctx.db, input.case_id);
    const where: (SQL | undefined)[] = [eq(claims.caseId, input.case_id)];
    if (input.party !== undefined) where.push(eq(claims.party, input.party));
    if (input.status !== undefined) where.push(eq(claims.status, input.status));
    if (input.document_id !== undefined) where.push(eq(claims.documentId, input.document_id));
    if (page.after !== undefined) where.push(gt(claims.seq, page.after[0]));
    const rows = await ctx.db
      .select()
      .from(claims)
      .where(and(...where))
      .orderBy(asc(claims.seq))
      .limit(page.limit + 1);
    return page.from(rows, (r) => [r.seq] as const, claimView);
  },
});
