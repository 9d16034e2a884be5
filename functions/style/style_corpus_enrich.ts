import * as z from 'zod';
import type { ToolContext } from '../../src/contract/define.ts';
import { invalidArgs } from '../../src/contract/errors.ts';
import { and, asc, count, eq, inArray, ne } from '../../src/db/orm.ts';
import { documents } from '../../src/db/schema/documents.ts';
import { styleEnrichments, stylePartNames, styleSegments } from '../../src/db/schema/holdings.ts';
import { outcomes } from '../../src/db/schema/vocabulary.ts';
import { defineExtractTool } from '../../src/extractors/extract_tool.ts';
import {
  type ExtractionTargets,
  extractionTargets,
  MAX_EXTRACT_DOCUMENTS,
  waitMsInput,
} from '../../src/extractors/tool.ts';
import { styleExtractor } from '../../src/style/extractor.ts';
import { pendingStyle } from '../../src/style/pending.ts';

const summary = z.object({
  segments: z.int().describe('Segments stored for these documents'),
  parts: z
    .array(z.object({ part: z.enum(stylePartNames), segments: z.int() }))
    .max(stylePartNames.length)
    .describe('Segments per part'),
  outcomes: z
    .array(z.object({ document_id: z.uuid(), outcome: z.enum(outcomes).nullable() }))
    .max(MAX_EXTRACT_DOCUMENTS)
    .describe('Each decision’s outcome as read (null: not found)'),
});

/**
 * Up to MAX_EXTRACT_DOCUMENTS pending style documents whose text is ready, oldest first, and as many of those
 * whose text is not, listed as skipped (they never crowd out the ready ones).
 */
async function pendingTargets(ctx: ToolContext): Promise<ExtractionTargets> {
  const pending = (ready: boolean) =>
    ctx.db
      .select({ d: documents })
      .from(documents)
      .leftJoin(styleEnrichments, eq(styleEnrichments.documentId, documents.id))
      .where(and(pendingStyle, ready ? eq(documents.status, 'ready') : ne(documents.status, 'ready')))
      .orderBy(asc(documents.createdAt), asc(documents.id))
      .limit(MAX_EXTRACT_DOCUMENTS);
  const [ready, waiting] = [await pending(true), await pending(false)];
  return {
    documents: ready.map((r) => r.d),
    skipped: waiting.map(({ d }) => ({ document_id: d.id, status: d.status })),
  };
}

export const style_corpus_enrich = defineExtractTool({
  name: 'style_corpus_enrich',
  title: 'Cut style examples into parts',
  description:
    'Segments style-corpus decisions into header, parties, background, claims, discussion, outcome and ' +
    'signatures, each with page and offsets, and reads the outcome; runs by itself after upload. One ' +
    'document, or all_pending (style_corpus_pending_list), up to 100 per call.',
  input: {
    document_id: z.uuid().optional().describe('One style document'),
    all_pending: z.boolean().optional().describe('true: every style document not yet enriched'),
    wait_ms: waitMsInput.describe('Wait this long (ms, ≤ 10000) for the result'),
  },
  precheck(input) {
    if ((input.document_id === undefined) === (input.all_pending !== true)) {
      throw invalidArgs(
        [{ path: 'document_id', message: 'give document_id or all_pending: true, exactly one' }],
        'Name one style document, or set all_pending to do every pending one.',
      );
    }
  },
  idempotencyKey: {
    describe: 'document_id, or all_pending (asking again queues nothing new)',
    of: (i) => i.document_id ?? 'all_pending',
  },
  extractor: styleExtractor,
  readTool: 'style_corpus_pending_list',
  counterpart: false,
  targets: (ctx, input) =>
    input.document_id !== undefined
      ? extractionTargets(ctx, styleExtractor, { document_id: input.document_id }, 'style documents')
      : pendingTargets(ctx),
  summary,
  async summarize(db, ids) {
    if (ids.length === 0) return { segments: 0, parts: [], outcomes: [] };
    const parts = await db
      .select({ part: styleSegments.part, segments: count() })
      .from(styleSegments)
      .where(inArray(styleSegments.documentId, [...ids]))
      .groupBy(styleSegments.part);
    const outcomes = await db
      .select({ document_id: styleEnrichments.documentId, outcome: styleEnrichments.outcome })
      .from(styleEnrichments)
      .where(
        and(
          inArray(styleEnrichments.documentId, [...ids]),
          eq(styleEnrichments.segmenterVersion, styleExtractor.version),
        ),
      );
    const order = (p: string) => stylePartNames.indexOf(p as (typeof stylePartNames)[number]);
    return {
      segments: parts.reduce((n, p) => n + Number(p.segments), 0),
      parts: parts
        .map((p) => ({ part: p.part, segments: Number(p.segments) }))
        .sort((a, b) => order(a.part) - order(b.part)),
      outcomes,
    };
  },
  done: (s, n) => `${n} decision(s) cut into ${s.segments} segment(s)`,
  queued: (jobs) => `Queued ${jobs} job(s); style_corpus_pending_list shows what is left`,
  next(ctx, run) {
    if (!run.done || run.failed) return undefined;
    const left = ctx.holds('style_corpus_pending_list')
      ? '; style_corpus_pending_list shows what is left'
      : '';
    return `Done: each part is stored for the drafting tools${left}.`;
  },
});
