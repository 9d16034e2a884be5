import * as z from 'zod';
import { APPRAISAL_ROLES } from '../../src/analysis/appraisal.ts';
import { analysisExtract, extractInput, extractKey } from '../../src/analysis/extract_tool.ts';
import { factExtractor } from '../../src/analysis/extractors.ts';
import { defineTool } from '../../src/contract/define.ts';
import { inArray, sql } from '../../src/db/orm.ts';
import { appraisalFacts } from '../../src/db/schema/analysis.ts';
import { extractionOutput } from '../../src/extractors/tool.ts';

const summary = z.object({
  facts: z.int(),
  flagged: z.int().describe('Facts with a note (a levy that is not half the betterment)'),
});

export const appraiser_fact_extract = defineTool({
  name: 'appraiser_fact_extract',
  title: 'Find appraisal facts',
  description:
    'Reads by rule a case’s appraisals: the appraiser and role, and facts with normalised values ' +
    '(dates, values, betterment, levy, prices, areas, coefficients). Compare: appraiser_fact_get.',
  input: extractInput,
  output: extractionOutput(summary),
  mutates: 'write',
  readCounterpart: 'appraiser_fact_get',
  idempotencyKey: extractKey,
  setSemantics: true,
  run: ({ ctx, input }) =>
    analysisExtract(
      ctx,
      {
        extractor: factExtractor,
        what: 'appraisals',
        roles: APPRAISAL_ROLES,
        readTool: 'appraiser_fact_get',
        summary,
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
        done: (s, n) =>
          `${s.facts} facts in ${n} appraisal(s)${s.flagged > 0 ? `, ${s.flagged} flagged` : ''}`,
      },
      input,
    ),
});
