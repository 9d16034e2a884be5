import * as z from 'zod';
import { loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { invalidArg, ToolError } from '../../src/contract/errors.ts';
import { and, eq, inArray, sql } from '../../src/db/orm.ts';
import { missingPrecedents } from '../../src/db/schema/precedents.ts';
import { missingOutput, missingView, reachableMissing } from '../../src/precedents/missing.ts';

/** At most this many are dismissed in one call (a case's open ones past it: call again). */
export const MAX_DISMISS = 200;

export const missing_precedent_review = defineTool({
  name: 'missing_precedent_review',
  title: 'Dismiss missing precedents in bulk',
  description:
    'Dismisses open missing precedents in bulk, with one reason: the given ids, or every open one of a ' +
    'case (up to 200 a call). Closed ones are left as they are and counted.',
  input: {
    missing_precedent_ids: z
      .array(z.uuid())
      .min(1)
      .max(MAX_DISMISS)
      .optional()
      .describe('From missing_precedent_list'),
    case_id: z.uuid().optional().describe('Or every open one of this case'),
    reason: z.string().trim().min(3).max(1000).describe('Why, for the record'),
  },
  output: z.object({
    dismissed: z.array(missingOutput).max(MAX_DISMISS).describe('Those this call closed as dismissed'),
    already_closed: z.int().describe('Of the ids given, those closed before (left as they are)'),
    remaining_open: z.int().describe('case_id: the case’s open ones past this call’s cap'),
  }),
  mutates: 'write',
  precheck: (input) => {
    if ((input.missing_precedent_ids === undefined) === (input.case_id === undefined)) {
      throw invalidArg(
        'missing_precedent_ids',
        'give either missing_precedent_ids or case_id',
        'missing_precedent_list (by case) shows the open ones.',
      );
    }
  },
  idempotencyKey: {
    describe: 'the ids or the case, and the reason',
    of: (input) => `${input.case_id ?? (input.missing_precedent_ids ?? []).join(',')}:${input.reason}`,
  },
  async run({ ctx, input }) {
    let ids: string[];
    let alreadyClosed = 0;
    let remaining = 0;
    if (input.case_id !== undefined) {
      await loadLiveCase(ctx.db, input.case_id);
      const open = await ctx.db
        .select({ id: missingPrecedents.id })
        .from(missingPrecedents)
        .where(and(eq(missingPrecedents.caseId, input.case_id), eq(missingPrecedents.status, 'open')))
        .orderBy(missingPrecedents.createdAt, missingPrecedents.id)
        .limit(MAX_DISMISS);
      ids = open.map((r) => r.id);
    } else {
      const wanted = [...new Set(input.missing_precedent_ids ?? [])];
      const rows = await ctx.db
        .select({ id: missingPrecedents.id, status: missingPrecedents.status })
        .from(missingPrecedents)
        .where(and(inArray(missingPrecedents.id, wanted), reachableMissing()));
      const known = new Set(rows.map((r) => r.id));
      const unknown = wanted.filter((id) => !known.has(id));
      if (unknown.length > 0) {
        throw new ToolError('not_found', `No missing precedent with id ${unknown.join(', ')}`, {
          details: { missing_precedent_ids: unknown },
          hint: 'missing_precedent_list shows them; those of a deleted case are not reachable. Nothing was dismissed.',
        });
      }
      ids = rows.filter((r) => r.status === 'open').map((r) => r.id);
      alreadyClosed = rows.length - ids.length;
    }
    const dismissed =
      ids.length === 0
        ? []
        : await ctx.db
            .update(missingPrecedents)
            .set({
              status: 'closed',
              resolution: 'dismissed',
              reason: input.reason,
              closedBy: ctx.agent,
              closedAt: ctx.now(),
            })
            // Only those still open: one closed meanwhile by another call is left as that call closed it.
            .where(and(inArray(missingPrecedents.id, ids), eq(missingPrecedents.status, 'open')))
            .returning();
    alreadyClosed += ids.length - dismissed.length;
    if (input.case_id !== undefined) {
      const [left] = await ctx.db
        .select({ n: sql<number>`count(*)::int` })
        .from(missingPrecedents)
        .where(and(eq(missingPrecedents.caseId, input.case_id), eq(missingPrecedents.status, 'open')));
      remaining = left?.n ?? 0;
    }
    dismissed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
    return ok(
      {
        dismissed: dismissed.map(missingView),
        already_closed: alreadyClosed,
        remaining_open: remaining,
      },
      `Dismissed ${dismissed.length}${alreadyClosed > 0 ? `, ${alreadyClosed} already closed` : ''}${remaining > 0 ? `, ${remaining} still open (call again)` : ''}`,
    );
  },
});
