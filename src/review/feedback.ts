// The feedback family's shared parts: a remark of the chair as the tools return it.
import * as z from 'zod';
import { blockKinds } from '../db/schema/drafting.ts';
import { type chairFeedback, feedbackKinds } from '../db/schema/review.ts';

export type FeedbackRow = typeof chairFeedback.$inferSelect;

export const blockKindInput = z.enum(blockKinds);

export const feedbackOutput = z.object({
  id: z.uuid(),
  case_id: z.uuid().nullable().describe('The case it was said about; null for drafting in general'),
  block_kind: z.enum(blockKinds).nullable().describe('The kind of block; null for the whole decision'),
  kind: z.enum(feedbackKinds),
  text: z.string(),
  recorded_at: z.iso.datetime(),
});

export const feedbackView = (r: FeedbackRow): z.output<typeof feedbackOutput> => ({
  id: r.id,
  case_id: r.caseId,
  block_kind: blockKindInput.safeParse(r.blockKind).data ?? null,
  kind: r.kind,
  text: r.text,
  recorded_at: r.createdAt.toISOString(),
});
