import * as z from 'zod';
import { countingFact } from '../../src/analysis/agent_facts.ts';
import { displayValue, findConflicts, groupFacts, valueOut } from '../../src/analysis/conflicts.ts';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { empty, ok } from '../../src/contract/envelope.ts';
import { and, asc, eq } from '../../src/db/orm.ts';
import {
  appraisalFacts,
  appraiserRoles,
  factKinds,
  factOrigins,
  factUnits,
} from '../../src/db/schema/analysis.ts';
import { documents } from '../../src/db/schema/documents.ts';
import { provenanceOf, provenanceOutput } from '../../src/extractors/provenance.ts';

const MAX_GROUPS = 200;
const MAX_FACTS = 50;
const MAX_CONFLICTS = 100;
const MAX_APPRAISERS = 50;

const value = z.union([z.number(), z.string()]).describe('agorot, m², percent; a date as YYYY-MM-DD');

const factOutput = z.object({
  id: z.uuid(),
  value,
  unit: z.enum(factUnits),
  display: z.string().describe('The value as people read it: 1,250,000 ₪, 620 מ"ר, 85%'),
  appraiser: z.string().nullable(),
  role: z.enum(appraiserRoles).describe('deciding, advisory, committee, appellants or other'),
  note: z.string().nullable().describe('levy_not_half: a levy that is not half the betterment'),
  origin: z
    .enum(factOrigins)
    .describe('extracted by the rules, or recorded by an agent (appraiser_fact_record)'),
  corrects: z.uuid().nullable().describe('The extracted fact this agent’s correction stands for'),
  source: provenanceOutput,
});

const subject = {
  kind: z.enum(factKinds),
  name: z.string().nullable().describe('A coefficient’s or an area’s name; a price’s state (new, prior)'),
  parcel: z.string().nullable(),
  plan: z.string().nullable(),
};

export const appraiser_fact_get = defineTool({
  name: 'appraiser_fact_get',
  title: 'Appraisal facts and conflicts',
  description:
    'A case’s appraisal facts (extracted and recorded; rejected and corrected ones left out) by kind and ' +
    'subject, and conflicts: one fact, different appraisers’ values, the deciding one first, and the gap.',
  input: {
    case_id: caseIdInput,
    kind: z.enum(factKinds).optional().describe('Only this kind'),
    tolerance: z.number().min(0).max(1).optional().describe('Relative gap counted as equal (0.05 = 5%)'),
  },
  output: z.object({
    appraisers: z
      .array(z.object({ document_id: z.uuid(), name: z.string().nullable(), role: z.enum(appraiserRoles) }))
      .max(MAX_APPRAISERS),
    groups: z.array(z.object({ ...subject, facts: z.array(factOutput).max(MAX_FACTS) })).max(MAX_GROUPS),
    conflicts: z
      .array(
        z.object({
          ...subject,
          sides: z.array(factOutput).max(MAX_APPRAISERS).describe('One fact per appraiser'),
          absolute: z.number().describe('Largest minus smallest value, in the unit (days for dates)'),
          relative: z.number().nullable().describe('absolute ÷ the larger value (null for dates)'),
          display: z.string().describe('The gap as people read it'),
        }),
      )
      .max(MAX_CONFLICTS),
    truncated: z.boolean().describe('More groups than shown'),
  }),
  mutates: false,
  async run({ ctx, input }) {
    await loadLiveCase(ctx.db, input.case_id);
    const rows = (
      await ctx.db
        .select({ fact: appraisalFacts })
        .from(appraisalFacts)
        .innerJoin(documents, eq(documents.id, appraisalFacts.documentId))
        .where(
          and(
            eq(appraisalFacts.caseId, input.case_id),
            countingFact,
            input.kind === undefined ? undefined : eq(appraisalFacts.kind, input.kind),
          ),
        )
        .orderBy(
          asc(documents.createdAt),
          asc(documents.id),
          asc(appraisalFacts.page),
          asc(appraisalFacts.start),
        )
    ).map((r) => r.fact);
    const view = (f: (typeof rows)[number]) => ({
      id: f.id,
      value: valueOut(f.value, f.unit),
      unit: f.unit,
      display: displayValue(f.value, f.unit),
      appraiser: f.appraiserName,
      role: f.appraiserRole,
      note: f.note,
      origin: f.origin,
      corrects: f.corrects,
      source: provenanceOf(f),
    });
    const head = (g: {
      kind: (typeof factKinds)[number];
      name: string | null;
      parcel: string | null;
      plan: string | null;
    }) => ({
      kind: g.kind,
      name: g.name,
      parcel: g.parcel,
      plan: g.plan,
    });
    const groups = groupFacts(rows);
    const conflicts = findConflicts(groups, input.tolerance ?? 0);
    const appraisers = [
      ...new Map(
        rows.map((f) => [
          f.documentId,
          { document_id: f.documentId, name: f.appraiserName, role: f.appraiserRole },
        ]),
      ).values(),
    ];
    const data = {
      appraisers: appraisers.slice(0, MAX_APPRAISERS),
      groups: groups
        .slice(0, MAX_GROUPS)
        .map((g) => ({ ...head(g), facts: g.facts.slice(0, MAX_FACTS).map(view) })),
      conflicts: conflicts.slice(0, MAX_CONFLICTS).map((c) => ({
        ...head(c.group),
        sides: c.sides.slice(0, MAX_APPRAISERS).map(view),
        absolute: c.absolute,
        relative: c.relative,
        display:
          c.group.facts[0]?.unit === 'date'
            ? `${c.absolute} days`
            : displayValue(c.absolute, c.group.facts[0]?.unit ?? 'agorot'),
      })),
      truncated: groups.length > MAX_GROUPS,
    };
    if (rows.length === 0) return empty(data, 'No appraisal facts in this case yet');
    return ok(data, `${rows.length} facts in ${groups.length} group(s), ${conflicts.length} conflict(s)`);
  },
});
