import * as z from 'zod';
import { addClaim, changeClaim } from '../../src/analysis/agent_claims.ts';
import { claimOutput, claimView, partyInput } from '../../src/analysis/views.ts';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { actionArgs, actionFieldIssues } from '../../src/contract/errors.ts';
import { claimKinds } from '../../src/db/schema/analysis.ts';
import { MAX_PAGES } from '../../src/documents/media.ts';
import { normalizeHebrew } from '../../src/hebrew/text.ts';

const actions = ['add', 'confirm', 'reword', 'reject', 'merge'] as const;
type Action = (typeof actions)[number];

/** What each action needs (and nothing else may be sent with it). */
const NEEDS: Record<Action, readonly string[]> = {
  add: ['party', 'text', 'document_id', 'page', 'quote'],
  confirm: ['claim_id'],
  reword: ['claim_id', 'text', 'rationale'],
  reject: ['claim_id', 'rationale'],
  merge: ['claim_id', 'into_claim_id', 'rationale'],
};
const OPTIONAL: Record<Action, readonly string[]> = {
  add: ['kind', 'rationale'],
  confirm: ['rationale'],
  reword: [],
  reject: [],
  merge: [],
};
const DONE: Record<Action, string> = {
  add: 'recorded',
  confirm: 'confirmed',
  reword: 'reworded',
  reject: 'rejected',
  merge: 'merged',
};
const FIELDS = [
  'claim_id',
  'party',
  'kind',
  'text',
  'document_id',
  'page',
  'quote',
  'into_claim_id',
  'rationale',
];

const text = (max: number, what: string) => z.string().trim().min(1).max(max).optional().describe(what);

export const claim_record = defineTool({
  name: 'claim_record',
  title: 'Decide on a claim',
  description:
    'An agent’s judgement on claims: add one the rules missed (quoting it), or confirm, reword, ' +
    'reject or merge one; the original stays, with wording, agent and reason beside it.',
  input: {
    case_id: caseIdInput,
    action: z.enum(actions).describe('add, or a decision on claim_id'),
    claim_id: z.uuid().optional().describe('The claim'),
    party: partyInput.optional().describe('add: whose'),
    kind: z.enum(claimKinds).optional().describe('add: claim or relief'),
    text: text(1000, 'add: the claim; reword: the new wording'),
    document_id: z.uuid().optional().describe('add: its document'),
    page: z.int().min(1).max(MAX_PAGES).optional().describe('add: its page'),
    quote: text(2000, 'add: its words on that page'),
    into_claim_id: z.uuid().optional().describe('merge: into this claim'),
    rationale: text(1000, 'Why (reword, reject, merge: required)'),
  },
  output: z.object({
    claim: claimOutput,
    created: z.boolean().describe('false when this was already recorded: nothing changed'),
  }),
  mutates: 'write',
  precheck(input) {
    const { allowed, issues } = actionFieldIssues(input, FIELDS, NEEDS, OPTIONAL);
    if (issues.length > 0) throw actionArgs(input.action, issues, allowed);
  },
  idempotencyKey: {
    describe: 'add: case_id + party + the normalised text; a change: claim_id + action + its content',
    of: (i) =>
      i.action === 'add'
        ? `add:${i.case_id}:${i.party}:${normalizeHebrew(i.text ?? '')}`
        : `${i.claim_id}:${i.action}:${i.action === 'reword' ? i.text : i.action === 'merge' ? i.into_claim_id : ''}`,
  },
  async run({ ctx, input }) {
    await loadLiveCase(ctx.db, input.case_id);
    const { row, created } =
      input.action === 'add'
        ? await addClaim(ctx, {
            caseId: input.case_id,
            party: input.party ?? 'appellant',
            kind: input.kind ?? 'claim',
            text: input.text ?? '',
            documentId: input.document_id ?? '',
            page: input.page ?? 1,
            quote: input.quote ?? '',
            reason: input.rationale,
          })
        : await changeClaim(ctx, {
            caseId: input.case_id,
            claimId: input.claim_id ?? '',
            action: input.action,
            content:
              input.action === 'reword'
                ? (input.text ?? '')
                : input.action === 'merge'
                  ? (input.into_claim_id ?? '')
                  : '',
            reason: input.rationale,
          });
    const what = DONE[input.action];
    return ok(
      { claim: claimView(row), created },
      created ? `Claim ${what}` : `Already ${what}; the claim is returned as it is`,
    );
  },
});
