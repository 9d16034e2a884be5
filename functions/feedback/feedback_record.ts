import * as z from 'zod';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { writtenOrExisting } from '../../src/contract/durable.ts';
import { ok } from '../../src/contract/envelope.ts';
import { ToolError } from '../../src/contract/errors.ts';
import { sha256Hex } from '../../src/contract/hash.ts';
import { eq } from '../../src/db/orm.ts';
import { chairFeedback, feedbackKinds } from '../../src/db/schema/review.ts';
import { normalizeHebrew } from '../../src/hebrew/text.ts';
import { blockKindInput, feedbackOutput, feedbackView } from '../../src/review/feedback.ts';

interface Remark {
  case_id?: string | undefined;
  block_kind?: string | undefined;
  kind: string;
  text: string;
}

/** The remark's natural key: where it applies, its kind, and its words as normalised. */
const keyOf = (r: Remark) =>
  `${r.case_id ?? '*'}:${r.block_kind ?? '*'}:${r.kind}:${sha256Hex(normalizeHebrew(r.text))}`;

export const feedback_record = defineTool({
  name: 'feedback_record',
  title: 'Record the chair’s feedback',
  description:
    'Records a remark of the chair (style, substance, citation, structure) on a kind of block, about a ' +
    'case or drafting in general; block_context_get serves it back.',
  input: {
    case_id: caseIdInput.optional().describe('Omit: drafting in general'),
    block_kind: blockKindInput.optional().describe('Omit: the whole decision'),
    kind: z.enum(feedbackKinds).describe('What it is about'),
    text: z.string().trim().min(1).max(5000).describe('The remark, in the chair’s words'),
  },
  output: z.object({
    feedback: feedbackOutput,
    created: z.boolean().describe('false when this remark was already recorded: nothing changed'),
  }),
  mutates: 'write',
  precheck(input) {
    if (normalizeHebrew(input.text) === '') {
      throw new ToolError('invalid_args', 'The remark has no words', {
        details: { issues: [{ path: 'text', message: 'has no words' }] },
      });
    }
  },
  idempotencyKey: { describe: 'case_id + block_kind + kind + the normalised text', of: keyOf },
  async run({ ctx, input }) {
    if (input.case_id !== undefined) await loadLiveCase(ctx.db, input.case_id);
    const key = keyOf(input);
    const { row, written: created } = await writtenOrExisting(
      ctx.db
        .insert(chairFeedback)
        .values({
          id: crypto.randomUUID(),
          caseId: input.case_id ?? null,
          blockKind: input.block_kind ?? null,
          kind: input.kind,
          text: input.text,
          naturalKey: key,
          createdBy: ctx.agent,
          createdAt: ctx.now(),
        })
        .onConflictDoNothing()
        .returning(),
      () => ctx.db.select().from(chairFeedback).where(eq(chairFeedback.naturalKey, key)),
      'the remark recorded before',
    );
    if (row.text !== input.text) {
      throw new ToolError('idempotency_key_reuse', 'This remark was already recorded in other words', {
        details: { feedback_id: row.id, recorded_text: row.text },
        hint: 'Repeat the recorded text, or record a remark that says something else.',
      });
    }
    return ok(
      { feedback: feedbackView(row), created },
      created ? 'Feedback recorded' : 'This remark was already recorded',
    );
  },
});
