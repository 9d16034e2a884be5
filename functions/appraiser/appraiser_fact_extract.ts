import * as z from 'zod';
import { FIGURE_ROLES } from '../../src/analysis/appraisal.ts';
import { analysisTargets, extractInput, extractKey } from '../../src/analysis/extract_tool.ts';
import { factExtractor } from '../../src/analysis/extractors.ts';
import { inArray, sql } from '../../src/db/orm.ts';
import { appraisalFacts } from '../../src/db/schema/analysis.ts';
import { defineExtractTool } from '../../src/extractors/extract_tool.ts';

export const appraiser_fact_extract = defineExtractTool({
  name: 'appraiser_fact_extract',
  title: 'Find appraisal facts',
  description:
    'Reads by rule a case’s appraisals (the appraiser and role, and facts with normalised values: dates, ' +
    'values, betterment, levy, prices, areas, coefficients, injury, compensation, reduction) and its ' +
    'decisions’ own sums (levy, compensation, claimed). Compare: appraiser_fact_get.',
  input: extractInput,
  idempotencyKey: extractKey,
  extractor: factExtractor,
  readTool: 'appraiser_fact_get',
  targets: analysisTargets(factExtractor, 'appraisals and decisions', FIGURE_ROLES),
  summary: z.object({
    facts: z.int(),
    flagged: z.int().describe('Facts with a note (a levy that is not half the betterment)'),
  }),
  async summarize(db, ids) {
    const [row] = await db
      .select({
        facts: sql<number>`count(*)::int`,
        flagged: sql<number>`(count(*) filter (where ${appraisalFacts.note} is not null))::int`,
      })
      .from(appraisalFacts)
      .where(inArray(appraisalFacts.documentId, [...ids]));
    return { facts: row?.facts ?? 0, flagged: row?.flagged ?? 0 };
  },
  done: (s, n) => `${s.facts} facts in ${n} document(s)${s.flagged > 0 ? `, ${s.flagged} flagged` : ''}`,
});
