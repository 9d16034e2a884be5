import * as z from 'zod';
import { CLAIM_ROLES } from '../../src/analysis/claims.ts';
import { analysisExtract, extractInput, extractKey } from '../../src/analysis/extract_tool.ts';
import { claimExtractor } from '../../src/analysis/extractors.ts';
import { defineTool } from '../../src/contract/define.ts';
import { inArray, sql } from '../../src/db/orm.ts';
import { claims } from '../../src/db/schema/analysis.ts';
import { extractionOutput } from '../../src/extractors/tool.ts';

const summary = z.object({
  claims: z.int().describe('Claims of these documents (any status)'),
  relief: z.int().describe('Relief requests'),
});

export const claim_extract = defineTool({
  name: 'claim_extract',
  title: 'Find claims',
  description:
    'Finds by rule candidate claims and relief requests in appeals, responses and decisions’ claim ' +
    'summaries, with party and provenance; re-runs keep agents’ decisions. Review: claim_list.',
  input: extractInput,
  output: extractionOutput(summary),
  mutates: 'write',
  readCounterpart: 'claim_list',
  idempotencyKey: extractKey,
  setSemantics: true,
  run: ({ ctx, input }) =>
    analysisExtract(
      ctx,
      {
        extractor: claimExtractor,
        what: 'appeals, responses and decisions',
        roles: CLAIM_ROLES,
        readTool: 'claim_list',
        summary,
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
      },
      input,
    ),
});
