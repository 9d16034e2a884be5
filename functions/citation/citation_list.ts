import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { pagedOutput } from '../../src/contract/limits.ts';
import { aliasedTable, and, asc, eq, isNotNull, isNull, type SQL, sql } from '../../src/db/orm.ts';
import { documents } from '../../src/db/schema/documents.ts';
import { citations, decisionMetadata } from '../../src/db/schema/precedents.ts';
import { treatments } from '../../src/db/schema/vocabulary.ts';
import { loadDocument } from '../../src/documents/views.ts';
import { citationOutput, citationView, documentRef, refOf } from '../../src/precedents/citation_views.ts';

export const citation_list = defineTool({
  name: 'citation_list',
  title: 'What a document cites',
  description:
    'What one document cites, in order: number, treatment and cue, passage, and the document it ' +
    'resolves to (null: not in the library).',
  input: {
    document_id: z.uuid().describe('The citing document'),
    treatment: z.enum(treatments).optional().describe('Only this treatment'),
    resolution: z.enum(['resolved', 'unresolved']).optional().describe('Only resolved or unresolved ones'),
  },
  output: pagedOutput(citationOutput.extend({ resolved_to: documentRef.nullable() })),
  mutates: false,
  pages: { key: z.tuple([z.int().min(1), z.int().min(0), z.uuid()]) },
  async run({ ctx, input, page }) {
    const doc = await loadDocument(ctx.db, input.document_id);
    const cited = aliasedTable(documents, 'cited');
    const where: (SQL | undefined)[] = [eq(citations.documentId, doc.id)];
    if (input.treatment !== undefined) where.push(eq(citations.treatment, input.treatment));
    if (input.resolution === 'resolved') where.push(isNotNull(citations.citedDocumentId));
    if (input.resolution === 'unresolved') where.push(isNull(citations.citedDocumentId));
    if (page.after !== undefined) {
      const [p, s, id] = page.after;
      where.push(sql`(${citations.page}, ${citations.start}, ${citations.id}) > (${p}, ${s}, ${id}::uuid)`);
    }
    const rows = await ctx.db
      .select({
        c: citations,
        cited,
        meta: { number: decisionMetadata.number, date: decisionMetadata.decisionDate },
      })
      .from(citations)
      .leftJoin(cited, eq(cited.id, citations.citedDocumentId))
      .leftJoin(decisionMetadata, eq(decisionMetadata.documentId, citations.citedDocumentId))
      .where(and(...where))
      .orderBy(asc(citations.page), asc(citations.start), asc(citations.id))
      .limit(page.limit + 1);
    return page.from(
      rows,
      (r) => [r.c.page, r.c.start, r.c.id] as const,
      (r) => ({
        ...citationView(r.c),
        resolved_to:
          r.cited === null
            ? null
            : refOf(r.cited, r.meta?.number ?? r.cited.number, r.meta?.date ?? r.cited.decisionDate),
      }),
    );
  },
});
