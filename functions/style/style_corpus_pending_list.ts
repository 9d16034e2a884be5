import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { createdAtKeyset, pagedOutput } from '../../src/contract/limits.ts';
import { and, asc, eq, type SQL } from '../../src/db/orm.ts';
import { documentStatuses, documents } from '../../src/db/schema/documents.ts';
import { styleEnrichments } from '../../src/db/schema/holdings.ts';
import { shownStatus } from '../../src/documents/views.ts';
import { styleExtractor } from '../../src/style/extractor.ts';
import { pendingStyle } from '../../src/style/pending.ts';

const keyset = createdAtKeyset(documents.createdAt, documents.id);

export const style_corpus_pending_list = defineTool({
  name: 'style_corpus_pending_list',
  title: 'Style examples to enrich',
  description:
    'Style-corpus decisions not yet cut into their parts, or cut by an older segmenter version, oldest ' +
    'first, with their text status. style_corpus_enrich with all_pending does them.',
  input: {},
  output: pagedOutput(
    z.object({
      document_id: z.uuid(),
      title: z.string(),
      status: z.enum(documentStatuses).describe('The text: enrichment needs it ready'),
      enriched_version: z.string().nullable().describe('The segmenter version that last read it, if any'),
      reason: z.enum(['not_enriched', 'older_version']),
      created_at: z.iso.datetime(),
    }),
    { current_version: z.string().describe('The segmenter version this server runs') },
  ),
  mutates: false,
  pages: keyset.pages,
  async run({ ctx, page }) {
    const where: (SQL | undefined)[] = [pendingStyle];
    if (page.after !== undefined) where.push(keyset.after(page.after));
    const rows = await ctx.db
      .select({
        id: documents.id,
        title: documents.title,
        status: documents.status,
        createdAt: documents.createdAt,
        version: styleEnrichments.segmenterVersion,
        cursorAt: keyset.cursorAt,
      })
      .from(documents)
      .leftJoin(styleEnrichments, eq(styleEnrichments.documentId, documents.id))
      .where(and(...where))
      .orderBy(asc(documents.createdAt), asc(documents.id))
      .limit(page.limit + 1);
    const listed = page.from(
      rows,
      (r) => [r.cursorAt, r.id] as const,
      (r) => ({
        document_id: r.id,
        title: r.title,
        status: shownStatus(r.status),
        enriched_version: r.version,
        reason: r.version === null ? ('not_enriched' as const) : ('older_version' as const),
        created_at: r.createdAt.toISOString(),
      }),
    );
    return { ...listed, current_version: styleExtractor.version };
  },
});
