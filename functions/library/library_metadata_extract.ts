import * as z from 'zod';
import { inArray } from '../../src/db/orm.ts';
import { decisionMetadata } from '../../src/db/schema/precedents.ts';
import { defineExtractTool } from '../../src/extractors/extract_tool.ts';
import { waitMsInput } from '../../src/extractors/tool.ts';
import { nothingPending, precedentTargets, waitKey } from '../../src/precedents/extract_tool.ts';
import { metadataExtractor } from '../../src/precedents/extractors.ts';

export const library_metadata_extract = defineExtractTool({
  name: 'library_metadata_extract',
  title: 'Read rulings’ and decisions’ metadata',
  description:
    'Reads by rule the court, number, date, judges, parties, outcome and area of library and internal ' +
    'documents, never over a field the uploader gave. Runs after upload by itself.',
  input: {
    document_id: z.uuid().optional().describe('One library or internal document'),
    all_pending: z.literal(true).optional().describe('Or every one not read yet (up to 100 a call)'),
    wait_ms: waitMsInput.describe('Wait this long (ms, ≤ 10000) for the result'),
  },
  idempotencyKey: waitKey,
  extractor: metadataExtractor,
  readTool: 'library_get',
  targets: (ctx, input) =>
    precedentTargets(ctx, metadataExtractor, 'library and internal documents', {
      document_id: input.document_id,
      pending: input.all_pending ? ['library', 'internal'] : undefined,
    }),
  summary: z.object({
    documents: z.int(),
    fields_extracted: z.int().describe('Fields read by rule'),
    fields_given: z.int().describe('Fields the uploader gave (never overwritten)'),
  }),
  async summarize(db, ids) {
    if (ids.length === 0) return { documents: 0, fields_extracted: 0, fields_given: 0 };
    const rows = await db
      .select({ sources: decisionMetadata.sources })
      .from(decisionMetadata)
      .where(inArray(decisionMetadata.documentId, [...ids]));
    const all = rows.flatMap((r) => Object.values(r.sources));
    return {
      documents: rows.length,
      fields_extracted: all.filter((s) => s === 'extracted').length,
      fields_given: all.filter((s) => s === 'given').length,
    };
  },
  done: (s, n) => `${n} document(s): ${s.fields_extracted} field(s) read, ${s.fields_given} given`,
  next: nothingPending,
});
