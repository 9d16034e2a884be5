import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { invalidArg } from '../../src/contract/errors.ts';
import { createdAtKeyset, pagedOutput } from '../../src/contract/limits.ts';
import { and, eq, inArray, type SQL } from '../../src/db/orm.ts';
import { documents } from '../../src/db/schema/documents.ts';
import { citations, decisionMetadata } from '../../src/db/schema/precedents.ts';
import { treatments } from '../../src/db/schema/vocabulary.ts';
import { loadDocument } from '../../src/documents/views.ts';
import { citationOutput, citationView, documentRef, refOf } from '../../src/precedents/citation_views.ts';
import { liveCiting, numberKeys, numbersInput } from '../../src/precedents/views.ts';

const keyset = createdAtKeyset(citations.createdAt, citations.id);

export const citation_incoming_list = defineTool({
  name: 'citation_incoming_list',
  title: 'Who cites a ruling or decision',
  description:
    'Who cites a ruling or decision (by id, or by number(s) even if absent): the citing document, ' +
    'passage, and treatment with its cue.',
  input: {
    document_id: z.uuid().optional().describe('The cited library or internal document'),
    numbers: numbersInput.optional().describe('Or the cited number(s)'),
    treatment: z.enum(treatments).optional().describe('Only this treatment'),
  },
  output: pagedOutput(citationOutput.extend({ citing: documentRef })),
  mutates: false,
  pages: keyset.pages,
  async run({ ctx, input, page }) {
    if ((input.document_id === undefined) === (input.numbers === undefined)) {
      throw invalidArg('document_id', 'give document_id or numbers, exactly one');
    }
    const where: (SQL | undefined)[] = [liveCiting(documents)];
    if (input.document_id !== undefined) {
      const doc = await loadDocument(ctx.db, input.document_id);
      where.push(eq(citations.citedDocumentId, doc.id));
    } else where.push(inArray(citations.key, numberKeys('numbers', input.numbers ?? '')));
    if (input.treatment !== undefined) where.push(eq(citations.treatment, input.treatment));
    if (page.after !== undefined) where.push(keyset.after(page.after));
    const rows = await ctx.db
      .select({
        c: citations,
        at: keyset.cursorAt,
        citing: documents,
        meta: { number: decisionMetadata.number, date: decisionMetadata.decisionDate },
      })
      .from(citations)
      .innerJoin(documents, eq(documents.id, citations.documentId))
      .leftJoin(decisionMetadata, eq(decisionMetadata.documentId, documents.id))
      .where(and(...where))
      .orderBy(citations.createdAt, citations.id)
      .limit(page.limit + 1);
    return page.from(
      rows,
      (r) => [r.at, r.c.id] as const,
      (r) => ({
        ...citationView(r.c),
        citing: refOf(r.citing, r.meta?.number ?? r.citing.number, r.meta?.date ?? r.citing.decisionDate),
      }),
    );
  },
});
