import * as z from 'zod';
import { addFact, correctFact, type FactRowFull, rejectFact } from '../../src/analysis/agent_facts.ts';
import { displayValue, valueOut } from '../../src/analysis/conflicts.ts';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { actionArgs, actionFieldIssues } from '../../src/contract/errors.ts';
import {
  appraiserRoles,
  factKinds,
  factOrigins,
  factStatuses,
  factUnits,
} from '../../src/db/schema/analysis.ts';
import { MAX_PAGES } from '../../src/documents/media.ts';
import { provenanceOf, provenanceOutput } from '../../src/extractors/provenance.ts';
import { normalizeHebrew } from '../../src/hebrew/text.ts';

const actions = ['add', 'correct', 'reject'] as const;
type Action = (typeof actions)[number];

/** What each action needs (and nothing else may be sent with it). */
const NEEDS: Record<Action, readonly string[]> = {
  add: ['kind', 'value', 'document_id', 'page', 'quote'],
  correct: ['fact_id', 'rationale'],
  reject: ['fact_id', 'rationale'],
};
const OPTIONAL: Record<Action, readonly string[]> = {
  add: ['name', 'parcel', 'plan', 'rationale'],
  correct: ['kind', 'name', 'value', 'parcel', 'plan', 'page', 'quote'],
  reject: [],
};
const CHANGES = ['kind', 'name', 'value', 'parcel', 'plan', 'quote'];
const DONE: Record<Action, string> = { add: 'recorded', correct: 'corrected', reject: 'rejected' };
const FIELDS = [...new Set([...Object.values(NEEDS).flat(), ...Object.values(OPTIONAL).flat()])];

const text = (max: number, what: string) => z.string().trim().min(1).max(max).optional().describe(what);

const factOutput = z.object({
  id: z.uuid(),
  kind: z.enum(factKinds),
  name: z.string().nullable().describe('A coefficient’s or an area’s name; a price’s state (new, prior)'),
  value: z.union([z.number(), z.string()]).describe('agorot, m², percent; a date as YYYY-MM-DD'),
  unit: z.enum(factUnits),
  display: z.string().describe('The value as people read it: 1,250,000 ₪, 620 מ"ר, 85%'),
  appraiser: z.string().nullable(),
  role: z.enum(appraiserRoles),
  parcel: z.string().nullable(),
  plan: z.string().nullable(),
  origin: z.enum(factOrigins).describe('extracted by the rules, or recorded by an agent'),
  status: z.enum(factStatuses).describe('active counts; rejected and corrected do not'),
  corrects: z.uuid().nullable().describe('The fact this correction stands for'),
  decision: z
    .object({ by: z.string(), reason: z.string().nullable() })
    .nullable()
    .describe('Who recorded, corrected or rejected it, and why'),
  source: provenanceOutput,
});

const factView = (f: FactRowFull): z.output<typeof factOutput> => ({
  id: f.id,
  kind: f.kind,
  name: f.name,
  value: valueOut(f.value, f.unit),
  unit: f.unit,
  display: displayValue(f.value, f.unit),
  appraiser: f.appraiserName,
  role: f.appraiserRole,
  parcel: f.parcel,
  plan: f.plan,
  origin: f.origin,
  status: f.status,
  corrects: f.corrects,
  decision: f.decidedBy === null ? null : { by: f.decidedBy, reason: f.reason },
  source: provenanceOf(f),
});

export const appraiser_fact_record = defineTool({
  name: 'appraiser_fact_record',
  title: 'Record an appraisal fact',
  description:
    'An agent’s judgement on appraisal facts: add one the rules missed (quoting it), correct one (the ' +
    'original stays, marked corrected) or reject one; kept beside the reader’s rows, never overwritten.',
  input: {
    case_id: caseIdInput,
    action: z.enum(actions).describe('add, or correct or reject fact_id'),
    fact_id: z.uuid().optional().describe('correct, reject: the fact (appraiser_fact_get)'),
    kind: z.enum(factKinds).optional().describe('add: its kind; correct: a new kind'),
    name: text(100, 'A coefficient’s or an area’s name («מקדם סחירות», «שטח עיקרי»); a price’s state'),
    value: text(
      60,
      'As written: «1,250,000 ₪» or «1,250,000» (shekels), «85%» or «0.85», «620 מ"ר», «5.7.2022»',
    ),
    parcel: text(200, 'The parcel it is about («גוש 6638 חלקה 12»)'),
    plan: text(100, 'The plan it is about'),
    document_id: z.uuid().optional().describe('add: its document'),
    page: z.int().min(1).max(MAX_PAGES).optional().describe('add, correct: the page of the quote'),
    quote: text(2000, 'add, correct: the words on that page that state it'),
    rationale: text(1000, 'Why (correct, reject: required)'),
  },
  output: z.object({
    fact: factOutput,
    created: z.boolean().describe('false when this was already recorded: nothing changed'),
  }),
  mutates: 'write',
  precheck(input) {
    const { given, allowed, issues } = actionFieldIssues(input, FIELDS, NEEDS, OPTIONAL);
    if (input.action === 'correct' && !CHANGES.some((f) => given.has(f)))
      issues.push({
        path: 'value',
        message: 'a correction changes at least one of kind, name, value, parcel, plan, quote',
      });
    if (given.has('page') !== given.has('quote') && input.action === 'correct')
      issues.push({ path: given.has('page') ? 'quote' : 'page', message: 'page and quote go together' });
    if (issues.length > 0) throw actionArgs(input.action, issues, allowed);
  },
  idempotencyKey: {
    describe:
      'add: document + kind + name + page + the quote; correct: fact_id + the changes; reject: fact_id',
    of: (i) =>
      i.action === 'add'
        ? `add:${i.document_id}:${i.kind}:${i.name ?? ''}:${i.page}:${normalizeHebrew(i.quote ?? '')}`
        : i.action === 'correct'
          ? `${i.fact_id}:correct:${JSON.stringify([i.kind, i.name, i.value, i.parcel, i.plan, i.page, i.quote])}`
          : `${i.fact_id}:reject`,
  },
  async run({ ctx, input }) {
    await loadLiveCase(ctx.db, input.case_id);
    const { row, created } =
      input.action === 'add'
        ? await addFact(ctx, {
            caseId: input.case_id,
            kind: input.kind ?? 'betterment',
            name: input.name ?? null,
            value: input.value ?? '',
            parcel: input.parcel ?? null,
            plan: input.plan ?? null,
            documentId: input.document_id ?? '',
            page: input.page ?? 1,
            quote: input.quote ?? '',
            reason: input.rationale,
          })
        : input.action === 'correct'
          ? await correctFact(ctx, {
              caseId: input.case_id,
              factId: input.fact_id ?? '',
              kind: input.kind,
              name: input.name,
              value: input.value,
              parcel: input.parcel,
              plan: input.plan,
              page: input.page,
              quote: input.quote,
              reason: input.rationale ?? '',
            })
          : await rejectFact(ctx, {
              caseId: input.case_id,
              factId: input.fact_id ?? '',
              reason: input.rationale ?? '',
            });
    const what = DONE[input.action];
    return ok(
      { fact: factView(row), created },
      created ? `Fact ${what}` : `Already ${what}; the fact is returned as it is`,
    );
  },
});
