// The style corpus's enrichment as durable work (docs/contract.md "Extraction"): one job per style document
// and segmenter version, queued by style_corpus_enrich and after the document's text extraction. A run
// replaces the document's segments and records the version and the decision's outcome it read; nothing in
// them is an agent's, so the whole set is the segmenter's to replace.
import { eq } from '../db/orm.ts';
import { styleEnrichments, styleSegments } from '../db/schema/holdings.ts';
import type { Extractor } from '../extractors/framework.ts';
import { segmentDecision } from './segments.ts';

const BATCH = 200;

export const styleExtractor: Extractor<ReturnType<typeof segmentDecision>> = {
  kind: 'style_corpus_enrich',
  version: 'style@1',
  accepts: (d) => d.corpus === 'style',
  find: (_doc, pages) => segmentDecision(pages),
  async run(tx, doc, pages, ctx, ahead) {
    const { segments, outcome } = ahead ?? segmentDecision(pages);
    await tx.delete(styleSegments).where(eq(styleSegments.documentId, doc.id));
    const rows = segments.map((s, position) => ({
      id: crypto.randomUUID(),
      part: s.part,
      position,
      heading: s.heading,
      documentId: doc.id,
      page: s.page,
      start: s.start,
      end: s.end,
      text: s.text,
      extractorVersion: styleExtractor.version,
    }));
    for (let i = 0; i < rows.length; i += BATCH) {
      await tx.insert(styleSegments).values(rows.slice(i, i + BATCH));
    }
    const enrichment = {
      segmenterVersion: styleExtractor.version,
      outcome,
      segments: rows.length,
      enrichedAt: ctx.now(),
    };
    await tx
      .insert(styleEnrichments)
      .values({ documentId: doc.id, ...enrichment })
      .onConflictDoUpdate({ target: styleEnrichments.documentId, set: enrichment });
  },
};
