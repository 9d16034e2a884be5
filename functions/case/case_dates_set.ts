import * as z from 'zod';
import { caseFieldsKey, caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import {
  dateFields,
  datesOutput,
  datesView,
  dayInput,
  deadlineOf,
  deadlineOutput,
  localDay,
  refuseArchived,
  setDates,
} from '../../src/cases/schedule.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { invalidArg } from '../../src/contract/errors.ts';

export const case_dates_set = defineTool({
  name: 'case_dates_set',
  title: 'Set a case’s dates',
  description:
    'Sets a case’s dates: appeal and response filed, hearings, decision due (warned of 14 days ' +
    'before). Only fields given change; hearings replaces the list; clear empties fields. Check a ' +
    'case_get candidate in its document before setting it.',
  input: {
    case_id: caseIdInput,
    filing_date: dayInput.optional().describe('Appeal filed (YYYY-MM-DD)'),
    response_date: dayInput.optional().describe('Response filed'),
    hearings: z
      .array(
        z.object({
          date: dayInput,
          note: z.string().trim().min(1).max(200).optional().describe('e.g. «דיון הוכחות»'),
        }),
      )
      .max(50)
      .optional()
      .describe('Every hearing (replaces the list)'),
    decision_due_date: dayInput.optional().describe('Decision due by'),
    clear: z.array(z.enum(dateFields)).min(1).max(dateFields.length).optional().describe('Fields to empty'),
  },
  output: z.object({
    case_id: z.uuid(),
    case_number: z.string(),
    dates: datesOutput,
    deadline: deadlineOutput,
    changed: z.array(z.enum(dateFields)).max(dateFields.length),
  }),
  mutates: 'write',
  idempotencyKey: caseFieldsKey,
  setSemantics: true,
  async run({ ctx, input }) {
    const { case_id, clear, ...given } = input;
    const set = dateFields.filter((f) => given[f] !== undefined);
    const both = set.filter((f) => clear?.includes(f));
    if (both.length > 0) throw invalidArg('clear', `${both.join(', ')} given and cleared at once`);
    const changed = [...set, ...(clear ?? [])];
    if (changed.length === 0) throw invalidArg('(arguments)', 'give at least one date, hearings or clear');
    const c = await loadLiveCase(ctx.db, case_id);
    refuseArchived(c);
    const row = await setDates(ctx.db, c.id, { ...given, clear }, ctx.agent, ctx.now());
    const dates = datesView(row);
    const deadline = deadlineOf(dates.decision_due_date, localDay(ctx.now()));
    return ok(
      { case_id: c.id, case_number: c.caseNumber, dates, deadline, changed },
      `Case ${c.caseNumber}: dates set (${changed.join(', ')})${deadline?.warning ? `; ${deadline.warning}` : ''}`,
    );
  },
});
