import { and, asc, eq, getTableColumns, ilike, isNull, or, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { empty, ok } from '../../src/contract/envelope.ts';
import { clampLimit, decodeCursor, pageInput, toPage } from '../../src/contract/limits.ts';
import { cases } from '../../src/db/schema/cases.ts';
import { caseOutcomeInput, caseStatusInput, caseView } from './_shared.ts';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);

// The cursor carries created_at to the microsecond as Postgres stores it: a JS Date (milliseconds) would
// land before the last row of the page and repeat it on the next one.
const exactCreatedAt = sql<string>`to_char(${cases.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const isTimestamp = (s: string) => {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(s)) return false;
  // A calendar-valid instant (no hour 25, no Feb 30): the Date round trip of the millisecond part matches.
  const d = new Date(`${s.slice(0, 23)}Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 23) === s.slice(0, 23);
};
const isCursorKey = (key: (string | number)[]) =>
  key.length === 2 &&
  typeof key[0] === 'string' &&
  isTimestamp(key[0]) &&
  typeof key[1] === 'string' &&
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(key[1]);

export const case_list = defineTool({
  name: 'case_list',
  title: 'List case files',
  description:
    'Lists appeal case files, oldest first, with optional filters (status, outcome, practice area, and a ' +
    'text match on case number or title). Paged: pass next_cursor back as cursor for the next page. ' +
    'Returns items (case summaries), the limit applied and next_cursor; status "empty" when nothing matches. ' +
    'Deleted cases are never listed.',
  input: {
    status: caseStatusInput.optional(),
    outcome: caseOutcomeInput.optional(),
    practice_area: z.string().trim().min(1).max(100).optional().describe('Exact practice area to filter by'),
    text: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe('Substring to find in the case number or title (case-insensitive)'),
    ...pageInput,
  },
  mutates: false,
  async run({ ctx, input }) {
    const limit = clampLimit(input.limit);
    const after = decodeCursor('case_list', input.cursor, isCursorKey);
    const where: (SQL | undefined)[] = [isNull(cases.deletedAt)];
    if (input.status !== undefined) where.push(eq(cases.status, input.status));
    if (input.outcome !== undefined) where.push(eq(cases.outcome, input.outcome));
    if (input.practice_area !== undefined) where.push(eq(cases.practiceArea, input.practice_area));
    if (input.text !== undefined) {
      const pattern = `%${escapeLike(input.text)}%`;
      where.push(or(ilike(cases.caseNumber, pattern), ilike(cases.title, pattern)));
    }
    if (after !== undefined) {
      const [at, id] = after;
      // A row comparison, so the (created_at, id) index serves it.
      where.push(sql`(${cases.createdAt}, ${cases.id}) > (${at}::timestamptz, ${id}::uuid)`);
    }
    const rows = await ctx.db
      .select({ ...getTableColumns(cases), cursorAt: exactCreatedAt })
      .from(cases)
      .where(and(...where))
      .orderBy(asc(cases.createdAt), asc(cases.id))
      .limit(limit + 1);
    const page = toPage('case_list', rows, limit, (r) => [r.cursorAt, r.id], caseView);
    return page.items.length === 0
      ? empty(page, 'No cases match')
      : ok(page, `${page.items.length} case(s)${page.next_cursor ? '; more on the next page' : ''}`);
  },
});
