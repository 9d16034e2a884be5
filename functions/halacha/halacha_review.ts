import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { invalidArgs, one, ToolError } from '../../src/contract/errors.ts';
import { and, eq } from '../../src/db/orm.ts';
import { documents } from '../../src/db/schema/documents.ts';
import { holdingDecisions, holdingReviews, holdings } from '../../src/db/schema/holdings.ts';
import { holdingOutput, holdingView } from '../../src/halacha/views.ts';

const DONE = { approve: 'approved', reject: 'rejected', edit: 'approved as edited' } as const;

export const halacha_review = defineTool({
  name: 'halacha_review',
  title: 'Review a holding',
  description:
    'The owner’s decision on a candidate holding: approve it, reject it, or edit its wording (the ' +
    'extracted text is kept beside it), optionally under a topic. Owner-gated and audited with the ' +
    'reason; only approved holdings are served as holdings.',
  input: {
    halacha_id: z.uuid().describe('The holding (halacha_list)'),
    decision: z.enum(holdingDecisions).describe('approve, reject, or edit (with text)'),
    text: z.string().trim().min(1).max(4000).optional().describe('edit: the approved wording'),
    topic: z.string().trim().min(1).max(200).optional().describe('The topic to file it under'),
  },
  output: z.object({
    halacha: holdingOutput,
    created: z.boolean().describe('false when this very review was already recorded: nothing changed'),
  }),
  mutates: 'write',
  ownerGate: true,
  precheck(input) {
    if (input.decision === 'edit' && input.text === undefined) {
      throw invalidArgs([{ path: 'text', message: 'required for edit' }], 'Give the approved wording.');
    }
    if (input.decision !== 'edit' && input.text !== undefined) {
      throw invalidArgs(
        [{ path: 'text', message: `not used by ${input.decision}` }],
        'To change the wording, use decision "edit".',
      );
    }
  },
  idempotencyKey: {
    describe: 'halacha_id + decision + the edited text + topic',
    of: (i) => `${i.halacha_id}:${i.decision}:${i.text ?? ''}:${i.topic ?? ''}`,
  },
  async run({ ctx, input, gate }) {
    const reviewer = gate?.owner ?? ctx.agent;
    const reason = gate?.reason ?? null;
    const content = JSON.stringify([input.text ?? null, input.topic ?? null]);
    const result = await ctx.db.transaction(async (tx) => {
      // The row lock serialises reviews of one holding: a concurrent repeat finds the first one's row.
      const [holding] = await tx
        .select()
        .from(holdings)
        .where(eq(holdings.id, input.halacha_id))
        .for('update');
      if (holding === undefined) {
        throw new ToolError('not_found', `No holding with id ${input.halacha_id}`, {
          details: { halacha_id: input.halacha_id },
          hint: 'halacha_list shows the holdings and their ids.',
        });
      }
      const [done] = await tx
        .select({ id: holdingReviews.id })
        .from(holdingReviews)
        .where(
          and(
            eq(holdingReviews.holdingId, holding.id),
            eq(holdingReviews.decision, input.decision),
            eq(holdingReviews.content, content),
          ),
        );
      if (done !== undefined) return { row: holding, created: false };
      const now = ctx.now();
      await tx.insert(holdingReviews).values({
        id: crypto.randomUUID(),
        holdingId: holding.id,
        decision: input.decision,
        content,
        text: input.text ?? null,
        topic: input.topic ?? null,
        reason,
        agent: ctx.agent,
        owner: gate?.owner ?? null,
        createdAt: now,
      });
      const [row] = await tx
        .update(holdings)
        .set({
          status: input.decision === 'reject' ? 'rejected' : 'approved',
          approvedText:
            input.decision === 'edit'
              ? (input.text ?? null)
              : input.decision === 'approve'
                ? null
                : holding.approvedText,
          topic: input.topic ?? holding.topic,
          reviewedBy: reviewer,
          reviewReason: reason,
          reviewedAt: now,
          updatedAt: now,
        })
        .where(eq(holdings.id, holding.id))
        .returning();
      return { row: row ?? holding, created: true };
    });
    const doc = one(
      await ctx.db
        .select({
          id: documents.id,
          corpus: documents.corpus,
          title: documents.title,
          number: documents.number,
        })
        .from(documents)
        .where(eq(documents.id, result.row.documentId)),
      'the holding’s document',
    );
    return ok(
      { halacha: holdingView(result.row, doc), created: result.created },
      result.created
        ? `Holding ${DONE[input.decision]}`
        : `Already ${DONE[input.decision]}; the holding is returned as it is`,
    );
  },
});
