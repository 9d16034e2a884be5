import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { actionArgs, actionFieldIssues, one } from '../../src/contract/errors.ts';
import { eq } from '../../src/db/orm.ts';
import { documents } from '../../src/db/schema/documents.ts';
import { MAX_PAGES } from '../../src/documents/media.ts';
import { addHolding, correctHolding, rejectHolding } from '../../src/halacha/agent_holdings.ts';
import { holdingOutput, holdingView } from '../../src/halacha/views.ts';
import { normalizeHebrew } from '../../src/hebrew/text.ts';

const actions = ['add', 'correct', 'reject'] as const;
type Action = (typeof actions)[number];

const NEEDS: Record<Action, readonly string[]> = {
  add: ['document_id', 'page', 'quote'],
  correct: ['halacha_id', 'quote', 'rationale'],
  reject: ['halacha_id', 'rationale'],
};
const OPTIONAL: Record<Action, readonly string[]> = {
  add: ['rationale'],
  correct: ['page'],
  reject: [],
};
const FIELDS = ['halacha_id', 'document_id', 'page', 'quote', 'rationale'];
const DONE: Record<Action, string> = { add: 'recorded', correct: 'corrected', reject: 'rejected' };

export const halacha_record = defineTool({
  name: 'halacha_record',
  title: 'Record a candidate holding',
  description:
    'An agent’s judgement on candidate holdings: add a passage the rules missed (quoting it), correct a ' +
    'candidate cut wrong (quote the right passage) or reject one that is no holding. The owner still ' +
    'reviews every candidate (halacha_review); a re-run of the extractor never overwrites these.',
  input: {
    action: z.enum(actions).describe('add, or correct or reject halacha_id'),
    halacha_id: z.uuid().optional().describe('correct, reject: the candidate (halacha_list)'),
    document_id: z.uuid().optional().describe('add: the ruling or decision (library or internal)'),
    page: z.int().min(1).max(MAX_PAGES).optional().describe('add, correct: the page of the quote'),
    quote: z
      .string()
      .trim()
      .min(1)
      .max(4000)
      .optional()
      .describe('add, correct: the holding’s words exactly as on that page'),
    rationale: z.string().trim().min(1).max(1000).optional().describe('Why (correct, reject: required)'),
  },
  output: z.object({
    halacha: holdingOutput,
    created: z.boolean().describe('false when this was already recorded: nothing changed'),
  }),
  mutates: 'write',
  precheck(input) {
    const { allowed, issues } = actionFieldIssues(input, FIELDS, NEEDS, OPTIONAL);
    if (issues.length > 0) throw actionArgs(input.action, issues, allowed);
  },
  idempotencyKey: {
    describe: 'add: document + page + the quote; correct: halacha_id + page + the quote; reject: halacha_id',
    of: (i) =>
      i.action === 'reject'
        ? `${i.halacha_id}:reject`
        : `${i.action}:${i.document_id ?? i.halacha_id}:${i.page ?? ''}:${normalizeHebrew(i.quote ?? '')}`,
  },
  async run({ ctx, input }) {
    const { row, created } =
      input.action === 'add'
        ? await addHolding(ctx, {
            documentId: input.document_id ?? '',
            page: input.page ?? 1,
            quote: input.quote ?? '',
          })
        : input.action === 'correct'
          ? await correctHolding(ctx, {
              holdingId: input.halacha_id ?? '',
              page: input.page,
              quote: input.quote ?? '',
              reason: input.rationale ?? '',
            })
          : await rejectHolding(ctx, { holdingId: input.halacha_id ?? '', reason: input.rationale ?? '' });
    const doc = one(
      await ctx.db
        .select({
          id: documents.id,
          corpus: documents.corpus,
          title: documents.title,
          number: documents.number,
        })
        .from(documents)
        .where(eq(documents.id, row.documentId)),
      'the holding’s document',
    );
    const what = DONE[input.action];
    return ok(
      { halacha: holdingView(row, doc), created },
      created ? `Candidate holding ${what}` : `Already ${what}; the candidate is returned as it is`,
    );
  },
});
