import * as z from 'zod';
import { analysisTargets, extractInput, extractKey } from '../../src/analysis/extract_tool.ts';
import { referenceExtractor } from '../../src/analysis/extractors.ts';
import { countDistinct, inArray, sql } from '../../src/db/orm.ts';
import { caseReferences } from '../../src/db/schema/analysis.ts';
import { defineExtractTool } from '../../src/extractors/extract_tool.ts';

export const reference_extract = defineExtractTool({
  name: 'reference_extract',
  title: 'Find references',
  description:
    'Finds by rule the statutes, sections, regulations, plans and parcels a case’s documents cite, ' +
    'under canonical keys, with provenance, in the background. Read with reference_list.',
  input: extractInput,
  idempotencyKey: extractKey,
  extractor: referenceExtractor,
  readTool: 'reference_list',
  targets: analysisTargets(referenceExtractor, 'case documents', null),
  summary: z.object({
    references: z.int().describe('Occurrences found'),
    keys: z.int().describe('Distinct references (canonical keys)'),
  }),
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
});
