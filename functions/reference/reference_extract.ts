import * as z from 'zod';
import { analysisExtract, extractInput, extractKey } from '../../src/analysis/extract_tool.ts';
import { referenceExtractor } from '../../src/analysis/extractors.ts';
import { defineTool } from '../../src/contract/define.ts';
import { countDistinct, inArray, sql } from '../../src/db/orm.ts';
import { caseReferences } from '../../src/db/schema/analysis.ts';
import { extractionOutput } from '../../src/extractors/tool.ts';

const summary = z.object({
  references: z.int().describe('Occurrences found'),
  keys: z.int().describe('Distinct references (canonical keys)'),
});

export const reference_extract = defineTool({
  name: 'reference_extract',
  title: 'Find references',
  description:
    'Finds by rule the statutes, sections, regulations, plans and parcels a case’s documents cite, ' +
    'under canonical keys, with provenance, in the background. Read with reference_list.',
  input: extractInput,
  output: extractionOutput(summary),
  mutates: 'write',
  readCounterpart: 'reference_list',
  idempotencyKey: extractKey,
  setSemantics: true,
  run: ({ ctx, input }) =>
    analysisExtract(
      ctx,
      {
        extractor: referenceExtractor,
        what: 'case documents',
        roles: null,
        readTool: 'reference_list',
        summary,
        async summarize(db, ids) {
          const [row] = await db
            .select({
              references: sql<number>`count(*)::int`,
              keys: countDistinct(sql`(${caseReferences.kind}, ${caseReferences.key})`),
            })
            .from(caseReferences)
            .where(inArray(caseReferences.documentId, [...ids]));
          return { references: row?.references ?? 0, keys: Number(row?.keys ?? 0) };
        },
        done: (s, n) => `${s.references} references (${s.keys} distinct) in ${n} document(s)`,
      },
      input,
    ),
});
