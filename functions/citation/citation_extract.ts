import * as z from 'zod';
import { and, eq, inArray, isNull, sql } from '../../src/db/orm.ts';
import { citations, missingPrecedents } from '../../src/db/schema/precedents.ts';
import { defineExtractTool } from '../../src/extractors/extract_tool.ts';
import { waitMsInput } from '../../src/extractors/tool.ts';
import { nothingPending, precedentTargets, waitKey } from '../../src/precedents/extract_tool.ts';
import { citationExtractor } from '../../src/precedents/extractors.ts';

export const citation_extract = defineExtractTool({
  name: 'citation_extract',
  title: 'Find citations of rulings and decisions',
  description:
    'Finds by rule the citations of rulings and decisions in documents, resolves them to the library, ' +
    'reads their treatment; unresolved ones open a missing precedent. Runs after upload by itself.',
  input: {
    document_id: z.uuid().optional().describe('One document'),
    case_id: z.uuid().optional().describe('Or a case’s documents'),
    corpus: z
      .enum(['internal', 'library'])
      .optional()
      .describe('Or this corpus’s documents not read yet (≤ 100)'),
    wait_ms: waitMsInput.describe('Wait this long (ms, ≤ 10000) for the result'),
  },
  idempotencyKey: waitKey,
  extractor: citationExtractor,
  readTool: 'citation_list',
  targets: (ctx, input) =>
    precedentTargets(ctx, citationExtractor, 'case, internal and library documents', {
      document_id: input.document_id,
      case_id: input.case_id,
      pending: input.corpus === undefined ? undefined : [input.corpus],
    }),
  summary: z.object({
    citations: z.int(),
    resolved: z.int().describe('To a library or internal document with that number'),
    unresolved: z.int(),
    missing_open: z.int().describe('Open missing precedents for the unresolved numbers'),
  }),
  async summarize(db, ids) {
    if (ids.length === 0) return { citations: 0, resolved: 0, unresolved: 0, missing_open: 0 };
    const [row] = await db
      .select({
        all: sql<number>`count(*)::int`,
        unresolved: sql<number>`(count(*) filter (where ${citations.citedDocumentId} is null))::int`,
      })
      .from(citations)
      .where(inArray(citations.documentId, [...ids]));
    const keys = db
      .select({ key: citations.key })
      .from(citations)
      .where(and(inArray(citations.documentId, [...ids]), isNull(citations.citedDocumentId)));
    const [open] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(missingPrecedents)
      .where(and(eq(missingPrecedents.status, 'open'), inArray(missingPrecedents.key, keys)));
    const all = row?.all ?? 0;
    const unresolved = row?.unresolved ?? 0;
    return { citations: all, resolved: all - unresolved, unresolved, missing_open: open?.n ?? 0 };
  },
  done: (s, n) =>
    `${s.citations} citation(s) in ${n} document(s): ${s.resolved} resolved, ${s.unresolved} unresolved`,
  next: nothingPending,
});
