import * as z from 'zod';
import { inArray, sql } from '../../src/db/orm.ts';
import { holdings } from '../../src/db/schema/holdings.ts';
import { defineExtractTool } from '../../src/extractors/extract_tool.ts';
import { extractionTargets, waitMsInput } from '../../src/extractors/tool.ts';
import { holdingExtractor } from '../../src/halacha/extractor.ts';

export const halacha_extract = defineExtractTool({
  name: 'halacha_extract',
  title: 'Find candidate holdings',
  description:
    'Finds by rule the candidate holdings (הלכות) of a library ruling or an internal decision: general ' +
    'rules in the court’s voice, by cue or by normative language in the discussion; never a claim, fact ' +
    'or order. Stored pending the owner’s review, with provenance. Runs after upload; read with halacha_list.',
  input: {
    document_id: z.uuid().describe('A library or internal document'),
    wait_ms: waitMsInput.describe('Wait this long (ms, ≤ 10000) for the result'),
  },
  idempotencyKey: {
    describe: 'document_id (asking again queues nothing new)',
    of: (i) => i.document_id,
  },
  extractor: holdingExtractor,
  readTool: 'halacha_list',
  targets: (ctx, input) =>
    extractionTargets(
      ctx,
      holdingExtractor,
      { document_id: input.document_id },
      'library and internal documents',
    ),
  summary: z.object({
    candidates: z.int().describe('Candidate holdings of the document, in every status'),
    pending: z.int().describe('Of them, awaiting the owner’s review'),
  }),
  async summarize(db, ids) {
    const [row] = await db
      .select({
        candidates: sql<number>`count(*)::int`,
        pending: sql<number>`(count(*) filter (where ${holdings.status} = 'pending'))::int`,
      })
      .from(holdings)
      .where(inArray(holdings.documentId, [...ids]));
    return { candidates: row?.candidates ?? 0, pending: row?.pending ?? 0 };
  },
  done: (s) => `${s.candidates} candidate holding(s), ${s.pending} pending review`,
  queued: (jobs) => `Queued ${jobs} job(s); halacha_list shows the candidates once they are done`,
});
