// Holdings as durable work (docs/contract.md "Extraction"): one job per library or internal document and
// extractor version, queued by halacha_extract and after the document's text extraction. A run keeps the
// candidates it finds again (same ids), drops its own pending candidates it no longer finds, and never touches
// a holding the owner reviewed or one an agent recorded (halacha_record).
import { and, eq, inArray, sql } from '../db/orm.ts';
import { holdings } from '../db/schema/holdings.ts';
import type { DbOrTx } from '../db/types.ts';
import type { Extractor } from '../extractors/framework.ts';
import { extractHoldings } from './holdings.ts';

const BATCH = 200;

export const holdingExtractor: Extractor<ReturnType<typeof extractHoldings>> = {
  kind: 'halacha_extract',
  version: 'holdings@2',
  accepts: (d) => d.corpus === 'library' || d.corpus === 'internal',
  find: (_doc, pages) => extractHoldings(pages),
  async run(tx: DbOrTx, doc, pages, ctx, ahead) {
    const found = ahead ?? extractHoldings(pages);
    const span = (h: { page: number; start: number; end: number }) => `${h.page}|${h.start}|${h.end}`;
    const keep = new Set(found.map(span));
    const stale = (
      await tx
        .select({ id: holdings.id, page: holdings.page, start: holdings.start, end: holdings.end })
        .from(holdings)
        .where(
          and(
            eq(holdings.documentId, doc.id),
            eq(holdings.status, 'pending'),
            eq(holdings.origin, 'extracted'),
          ),
        )
    )
      .filter((h) => !keep.has(span(h)))
      .map((h) => h.id);
    for (let i = 0; i < stale.length; i += BATCH) {
      await tx.delete(holdings).where(inArray(holdings.id, stale.slice(i, i + BATCH)));
    }
    const now = ctx.now();
    const rows = found.map((h) => ({
      id: crypto.randomUUID(),
      cue: h.cue,
      documentId: doc.id,
      page: h.page,
      start: h.start,
      end: h.end,
      text: h.text,
      extractorVersion: holdingExtractor.version,
      createdAt: now,
      updatedAt: now,
    }));
    for (let i = 0; i < rows.length; i += BATCH) {
      await tx
        .insert(holdings)
        .values(rows.slice(i, i + BATCH))
        .onConflictDoUpdate({
          target: [holdings.documentId, holdings.page, holdings.start, holdings.end],
          set: {
            cue: sql`excluded.cue`,
            text: sql`excluded.text`,
            extractorVersion: sql`excluded.extractor_version`,
          },
          setWhere: sql`${holdings.status} = 'pending' and ${holdings.origin} = 'extracted'`,
        });
    }
  },
};
