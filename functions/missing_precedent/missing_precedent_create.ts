import * as z from 'zod';
import { loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { invalidArg, ToolError } from '../../src/contract/errors.ts';
import { and, eq } from '../../src/db/orm.ts';
import { missingPrecedents } from '../../src/db/schema/precedents.ts';
import { splitProceedings } from '../../src/legal/proceedings.ts';
import { missingOutput, missingView } from '../../src/precedents/missing.ts';
import { resolveKeys } from '../../src/precedents/resolve.ts';

/** The one proceeding number of the citation, normalised; anything else is invalid_args. */
function requireOneProceeding(citation: string): string {
  const { keys } = splitProceedings(citation);
  if (keys.length !== 1) {
    throw invalidArg(
      'citation',
      keys.length === 0 ? 'no proceeding number in it' : 'one citation a call',
      'e.g. עע"מ 9001/19',
    );
  }
  return keys[0] as string;
}

export const missing_precedent_create = defineTool({
  name: 'missing_precedent_create',
  title: 'Record a missing precedent',
  description:
    'Records a ruling cited or needed but not in the library, for the owner to supply; one open ' +
    'record per number (asking again returns it).',
  input: {
    citation: z
      .string()
      .trim()
      .min(3)
      .max(300)
      .describe('The citation, any written form, e.g. עע"מ 9001/19 כהן נ׳ …'),
    case_id: z.uuid().optional().describe('The case it is needed for'),
    context: z.string().trim().min(3).max(2000).describe('Why it is needed, or the passage citing it'),
  },
  output: z.object({ missing_precedent: missingOutput, created: z.boolean() }),
  mutates: 'write',
  precheck: (input) => void requireOneProceeding(input.citation),
  idempotencyKey: {
    describe: 'the normalised number and case',
    of: (input) => `${requireOneProceeding(input.citation)}:${input.case_id ?? '-'}`,
  },
  async run({ ctx, input }) {
    const key = requireOneProceeding(input.citation);
    if (input.case_id !== undefined) await loadLiveCase(ctx.db, input.case_id);
    const present = (await resolveKeys(ctx.db, [key])).get(key);
    if (present !== undefined) {
      throw new ToolError('invalid_state', `${key} is already in the library`, {
        details: { key, document_id: present },
        hint: ctx.holds('library_get')
          ? 'library_get with its number shows it.'
          : 'It needs no missing precedent.',
      });
    }
    // The open record of the number is this one's answer; one closed meanwhile leaves room for a new one.
    for (let attempt = 0; attempt < 3; attempt++) {
      const [inserted] = await ctx.db
        .insert(missingPrecedents)
        .values({
          id: crypto.randomUUID(),
          key,
          citation: input.citation,
          caseId: input.case_id ?? null,
          context: input.context,
          createdBy: ctx.agent,
        })
        .onConflictDoNothing()
        .returning();
      if (inserted !== undefined) {
        return ok({ missing_precedent: missingView(inserted), created: true }, `Recorded ${key} as missing`);
      }
      const [open] = await ctx.db
        .select()
        .from(missingPrecedents)
        .where(and(eq(missingPrecedents.key, key), eq(missingPrecedents.status, 'open')));
      if (open !== undefined) {
        return ok(
          { missing_precedent: missingView(open), created: false },
          `${key} is already recorded as missing`,
        );
      }
    }
    throw new Error(`the open missing precedent of ${key} kept changing`);
  },
});
