import * as z from 'zod';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import { outcomeInput, outcomeOf, parseOutcome } from '../../src/cases/outcomes.ts';
import { defineTool } from '../../src/contract/define.ts';
import { writtenOrExisting } from '../../src/contract/durable.ts';
import { ok } from '../../src/contract/envelope.ts';
import { ToolError } from '../../src/contract/errors.ts';
import { sha256Hex, stableStringify } from '../../src/contract/hash.ts';
import { and, eq, inArray } from '../../src/db/orm.ts';
import { argumentMaps, caseArguments } from '../../src/db/schema/analysis.ts';
import { directions } from '../../src/db/schema/review.ts';
import { outcomeLabels } from '../../src/db/schema/vocabulary.ts';
import { directionOutput, directionView, MAX_DIRECTION_ARGUMENTS } from '../../src/review/directions.ts';

interface Content {
  title: string;
  rationale: string;
  outcome: string;
  argument_ids?: string[] | undefined;
}

/** The content's hash: the same direction proposed again (arguments in any order) is the same direction. */
const contentHash = (c: Content) =>
  sha256Hex(
    stableStringify({
      title: c.title,
      rationale: c.rationale,
      outcome: parseOutcome(c.outcome) ?? c.outcome,
      arguments: [...new Set(c.argument_ids ?? [])].sort(),
    }),
  );

export const direction_propose = defineTool({
  name: 'direction_propose',
  title: 'Propose a direction',
  description:
    'Proposes a direction for the decision: its outcome, rationale and arguments. The owner approves one ' +
    'with direction_approve.',
  input: {
    case_id: caseIdInput,
    title: z.string().trim().min(1).max(300).describe('A short name'),
    rationale: z.string().trim().min(1).max(10_000).describe('Why'),
    outcome: outcomeInput,
    argument_ids: z
      .array(z.uuid())
      .max(MAX_DIRECTION_ARGUMENTS)
      .optional()
      .describe('Its arguments (argument_list)'),
  },
  output: z.object({
    direction: directionOutput,
    created: z.boolean().describe('false when this direction was already proposed: nothing changed'),
  }),
  mutates: 'write',
  precheck(input) {
    outcomeOf(input.outcome);
  },
  idempotencyKey: {
    describe: 'case_id + the hash of title, rationale, outcome and arguments',
    of: (input) => `${input.case_id}:${contentHash(input)}`,
  },
  async run({ ctx, input }) {
    await loadLiveCase(ctx.db, input.case_id);
    const outcome = outcomeOf(input.outcome);
    const argumentIds = [...new Set(input.argument_ids ?? [])];
    if (argumentIds.length > 0) {
      const found = await ctx.db
        .select({ id: caseArguments.id })
        .from(caseArguments)
        .innerJoin(argumentMaps, eq(argumentMaps.id, caseArguments.mapId))
        .where(and(eq(argumentMaps.caseId, input.case_id), inArray(caseArguments.id, argumentIds)));
      const known = new Set(found.map((r) => r.id));
      const absent = argumentIds.filter((id) => !known.has(id));
      if (absent.length > 0) {
        throw new ToolError('not_found', `No argument ${absent.join(', ')} in this case`, {
          details: { case_id: input.case_id, argument_ids: absent },
          hint: 'argument_list shows the case’s arguments and their ids.',
        });
      }
    }
    const hash = contentHash(input);
    const { row, written: created } = await writtenOrExisting(
      ctx.db
        .insert(directions)
        .values({
          id: crypto.randomUUID(),
          caseId: input.case_id,
          title: input.title,
          rationale: input.rationale,
          outcome,
          argumentIds,
          contentHash: hash,
          proposedBy: ctx.agent,
          createdAt: ctx.now(),
        })
        .onConflictDoNothing()
        .returning(),
      () =>
        ctx.db
          .select()
          .from(directions)
          .where(and(eq(directions.caseId, input.case_id), eq(directions.contentHash, hash))),
      'the direction proposed before',
    );
    return ok(
      { direction: directionView(row), created },
      created
        ? `Direction proposed (${outcomeLabels[outcome]}); the owner approves it with direction_approve`
        : `This direction was already proposed (${row.status})`,
    );
  },
});
