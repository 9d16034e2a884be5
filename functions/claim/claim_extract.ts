import * as z from 'zod';
import { CLAIM_ROLES } from '../../src/analysis/claims.ts';
import { analysisTargets, extractInput, extractKey } from '../../src/analysis/extract_tool.ts';
import { claimExtractor } from '../../src/analysis/extractors.ts';
import { inArray, sql } from '../../src/db/orm.ts';
import { claims } from '../../src/db/schema/analysis.ts';
import { defineExtractTool } from '../../src/extractors/extract_tool.ts';

export const claim_extract = defineExtractTool({
  name: 'claim_extract',
  title: 'Find claims',
  description:
    'Finds by rule candidate claims and relief requests in appeals, responses and decisions’ claim ' +
    'summaries, with party and provenance; re-runs keep agents’ decisions. Review: claim_list.',
  input: extractInput,
  idempotencyKey: extractKey,
  extractor: claimExtractor,
  readTool: 'claim_list',
  targets: analysisTargets(
    claimExtractor,
    'appeals, responses, summations, arguments, requests, protocols and decisions',
    CLAIM_ROLES,
  ),
  summary: z.object({
    claims: z.int().describe('Claims of these documents (any status)'),
    relief: z.int().describe('Relief requests'),
  }),
  async summarize(db, ids) {
    const [row] = await db
      .select({
        claims: sql<number>`(count(*) filter (where ${claims.kind} = 'claim'))::int`,
        relief: sql<number>`(count(*) filter (where ${claims.kind} = 'relief'))::int`,
      })
      .from(claims)
      .where(inArray(claims.documentId, [...ids]));
    return { claims: row?.claims ?? 0, relief: row?.relief ?? 0 };
  },
  done: (s, n) => `${s.claims} claims and ${s.relief} relief requests in ${n} document(s)`,
});
