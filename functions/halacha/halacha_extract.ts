import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { inArray, sql } from '../../src/db/orm.ts';
import { holdings } from '../../src/db/schema/holdings.ts';
import {
  extractionNext,
  extractionOutput,
  extractionTargets,
  runExtraction,
  waitMsInput,
} from '../../src/extractors/tool.ts';
import { holdingExtractor } from '../../src/halacha/extractor.ts';

const summary = z.object({
  candidates: z.int().describe('Candidate holdings of the document, in every status'),
  pending: z.int().describe('Of them, awaiting the owner’s review'),
});

export const halacha_extract = defineTool({
  name: 'halacha_extract',
  title: 'Find candidate holdings',
  description:
    'Finds by rule the candidate holdings (הלכות) of a library ruling or an internal decision — ' +
    'paragraphs with a holding cue, never a party’s claim — stored pending the owner’s review, with ' +
    'provenance. Runs by itself after upload; read with halacha_list.',
  input: {
    document_id: z.uuid().describe('A library or internal document'),
    wait_ms: waitMsInput.describe('Wait this long (ms, ≤ 10000) for the result'),
  },
  output: extractionOutput(summary),
  mutates: 'write',
  readCounterpart: 'halacha_list',
  idempotencyKey: {
    describe: 'document_id (asking again queues nothing new)',
    of: (i) => i.document_id,
  },
  setSemantics: true,
  async run({ ctx, input }) {
    const targets = await extractionTargets(
      ctx,
      holdingExtractor,
      { document_id: input.document_id },
      'library and internal documents',
    );
    const run = await runExtraction(ctx, holdingExtractor, targets.documents, input.wait_ms ?? 0);
    const failed = run.jobs.some((j) => j.state === 'dead');
    let found: z.output<typeof summary> | null = null;
    if (run.done) {
      const ids = targets.documents.map((d) => d.id);
      const [row] = await ctx.db
        .select({
          candidates: sql<number>`count(*)::int`,
          pending: sql<number>`(count(*) filter (where ${holdings.status} = 'pending'))::int`,
        })
        .from(holdings)
        .where(inArray(holdings.documentId, ids));
      found = { candidates: row?.candidates ?? 0, pending: row?.pending ?? 0 };
    }
    return ok(
      {
        jobs: run.jobs,
        skipped: targets.skipped,
        done: run.done,
        summary: found,
        next: extractionNext(ctx, { done: run.done, failed, readTool: 'halacha_list' }),
      },
      found !== null
        ? `${found.candidates} candidate holding(s), ${found.pending} pending review`
        : `Queued ${run.jobs.length} job(s); halacha_list shows the candidates once they are done`,
    );
  },
});
