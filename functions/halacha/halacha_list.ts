import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { pagedOutput } from '../../src/contract/limits.ts';
import { and, asc, eq, gt, type SQL } from '../../src/db/orm.ts';
import { documents } from '../../src/db/schema/documents.ts';
import { holdingStatuses, holdings } from '../../src/db/schema/holdings.ts';
import { loadDocument } from '../../src/documents/views.ts';
import { holdingOutput, holdingView } from '../../src/halacha/views.ts';

export const halacha_list = defineTool({
  name: 'halacha_list',
  title: 'Holdings',
  description:
    'Holdings found in library rulings and internal decisions, oldest first: by default the queue ' +
    'pending the owner’s review; approved ones carry the owner’s wording beside the extracted text.',
  input: {
    status: z
      .enum([...holdingStatuses, 'all'])
      .optional()
      .describe('pending (default), approved, rejected or all'),
    document_id: z.uuid().optional().describe('Only this document’s'),
    topic: z.string().trim().min(1).max(200).optional().describe('Only holdings reviewed under this topic'),
  },
  output: pagedOutput(holdingOutput),
  mutates: false,
  pages: { key: z.tuple([z.int().min(0)]) },
  async run({ ctx, input, page }) {
    const where: (SQL | undefined)[] = [];
    if (input.document_id !== undefined) {
      await loadDocument(ctx.db, input.document_id);
      where.push(eq(holdings.documentId, input.document_id));
    }
    const status = input.status ?? 'pending';
    if (status !== 'all') where.push(eq(holdings.status, status));
    if (input.topic !== undefined) where.push(eq(holdings.topic, input.topic));
    if (page.after !== undefined) where.push(gt(holdings.seq, page.after[0]));
    const rows = await ctx.db
      .select({
        h: holdings,
        d: { id: documents.id, corpus: documents.corpus, title: documents.title, number: documents.number },
      })
      .from(holdings)
      .innerJoin(documents, eq(documents.id, holdings.documentId))
      .where(and(...where))
      .orderBy(asc(holdings.seq))
      .limit(page.limit + 1);
    return page.from(
      rows,
      (r) => [r.h.seq] as const,
      (r) => holdingView(r.h, r.d),
    );
  },
});
