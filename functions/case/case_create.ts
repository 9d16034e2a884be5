import * as z from 'zod';
import { practiceAreaOf } from '../../src/cases/practice_areas.ts';
import { caseFields, caseOutput, caseView } from '../../src/cases/views.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { one, ToolError } from '../../src/contract/errors.ts';
import { getTableColumns, sql } from '../../src/db/orm.ts';
import { cases } from '../../src/db/schema/cases.ts';

export const case_create = defineTool({
  name: 'case_create',
  title: 'Open an appeal case file',
  description:
    'Opens an appeal case file (תיק ערר) under its committee case number; returns it with the id ' +
    'every case tool takes. The same number with other details is refused: change a case with ' +
    'case_update.',
  input: {
    case_number: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .describe('The case number as written on the file, e.g. "ערר 1234/25"'),
    ...caseFields,
    title: z.string().trim().min(1).max(300).describe('Short title of the appeal'),
  },
  output: z.object({
    case: caseOutput,
    created: z.boolean().describe('false when the case already existed and was returned as it is'),
  }),
  mutates: 'write',
  idempotencyKey: { describe: 'case_number', of: (input) => input.case_number },
  async run({ ctx, input }) {
    const practiceArea = input.practice_area === undefined ? null : practiceAreaOf(input.practice_area);
    // One round trip: insert, or touch the existing row so RETURNING yields it (xmax = 0 only for a fresh insert).
    const rows = await ctx.db
      .insert(cases)
      .values({
        id: crypto.randomUUID(),
        caseNumber: input.case_number,
        title: input.title,
        appellant: input.appellant ?? null,
        respondent: input.respondent ?? null,
        committee: input.committee ?? null,
        practiceArea,
        propertyAddress: input.property_address ?? null,
        notes: input.notes ?? null,
        createdBy: ctx.agent,
      })
      .onConflictDoUpdate({ target: cases.caseNumber, set: { caseNumber: sql`excluded.case_number` } })
      .returning({ ...getTableColumns(cases), created: sql<boolean>`(xmax = 0)` });
    const { created, ...row } = one(rows, 'case upsert');
    if (row.deletedAt !== null) {
      throw new ToolError('invalid_state', `Case number ${input.case_number} belongs to a deleted case`, {
        details: { case_number: input.case_number, deleted_at: row.deletedAt.toISOString() },
        hint: 'A deleted case keeps its number; ask the owner whether to use a distinct number for the new file.',
      });
    }
    if (!created) {
      // The durable layer keeps the promise of the request layer: the same number with other details is a
      // conflict, not a silent "already exists" (the key-value record may be gone after 24 h or a flush).
      const given: [string, string | undefined, string | null][] = [
        ['title', input.title, row.title],
        ['appellant', input.appellant, row.appellant],
        ['respondent', input.respondent, row.respondent],
        ['committee', input.committee, row.committee],
        ['practice_area', practiceArea ?? undefined, row.practiceArea],
        ['property_address', input.property_address, row.propertyAddress],
        ['notes', input.notes, row.notes],
      ];
      const different = given.filter(([, sent, stored]) => (sent ?? null) !== stored).map(([name]) => name);
      if (different.length > 0) {
        throw new ToolError(
          'idempotency_key_reuse',
          `Case number ${input.case_number} already exists with different details (${different.join(', ')})`,
          {
            details: { key: input.case_number, case_id: row.id, different },
            hint: 'Use case_update with this case_id to change the existing case, or repeat its current details.',
          },
        );
      }
    }
    const view = caseView(row);
    return ok(
      { case: view, created },
      created ? `Case ${view.case_number} opened` : `Case ${view.case_number} already exists; returned it`,
    );
  },
});
