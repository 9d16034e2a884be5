import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { invalidArg, ToolError } from '../../src/contract/errors.ts';
import { and, asc, eq, gte, lte } from '../../src/db/orm.ts';
import { documentPages } from '../../src/db/schema/documents.ts';
import { documentIdInput, loadDocument } from '../../src/documents/views.ts';

/** At most this many pages, and about this many characters, per call (C6: long text is paged). */
export const MAX_PAGES_PER_CALL = 20;
export const MAX_CHARS_PER_CALL = 60_000;

export const document_text_get = defineTool({
  name: 'document_text_get',
  title: 'Read a document’s text by page',
  description:
    `Reads a document’s extracted text by page, from_page to to_page (at most ${MAX_PAGES_PER_CALL} pages or about ${MAX_CHARS_PER_CALL} ` +
    'characters a call), with page_count and next_page. Use it to read a search hit’s page whole. Not ' +
    'extracted yet, or failed: invalid_state.',
  input: {
    document_id: documentIdInput,
    from_page: z.number().int().min(1).max(100_000).optional().describe('First page (default 1)'),
    to_page: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .optional()
      .describe(`Last page (default from_page + ${MAX_PAGES_PER_CALL - 1})`),
  },
  output: z.object({
    document_id: z.uuid(),
    title: z.string(),
    page_count: z.int(),
    pages: z
      .array(
        z.object({
          page: z.int().describe('1-based page number'),
          text: z.string(),
          ocr_confidence: z
            .number()
            .min(0)
            .max(1)
            .nullable()
            .optional()
            .describe('A page read by OCR (a scan): the engine’s mean word confidence, 0..1'),
          unreadable: z
            .boolean()
            .optional()
            .describe(
              'A page OCR could not read (blank, noise, too faint): its text is empty; ask for a better scan',
            ),
        }),
      )
      .max(MAX_PAGES_PER_CALL),
    next_page: z.int().nullable().describe('The page to continue from; null at the end'),
  }),
  mutates: false,
  async run({ ctx, input }) {
    const doc = await loadDocument(ctx.db, input.document_id);
    if (doc.status !== 'ready') {
      throw new ToolError(
        'invalid_state',
        doc.status === 'failed'
          ? `Text extraction of this document failed: ${doc.error ?? 'unknown error'}`
          : `The document's text is not extracted yet (status ${doc.status})`,
        {
          details: { document_id: doc.id, status: doc.status, ...(doc.error ? { error: doc.error } : {}) },
          hint:
            doc.status === 'failed'
              ? 'Read it again with document_extract (after a transient fault or a reader update), or remove it with document_delete and upload a readable copy (an unencrypted PDF, DOCX or text, or a scan at 300 dpi: scans are read by OCR).'
              : 'Extraction runs in the background; check extraction_status and try again shortly.',
        },
      );
    }
    const pageCount = doc.pageCount ?? 0;
    const from = input.from_page ?? 1;
    const to = Math.min(
      input.to_page ?? from + MAX_PAGES_PER_CALL - 1,
      from + MAX_PAGES_PER_CALL - 1,
      pageCount,
    );
    if (input.to_page !== undefined && input.to_page < from) {
      throw invalidArg('to_page', `must be ≥ from_page (${from})`);
    }
    if (from > pageCount) {
      throw invalidArg('from_page', `the document has ${pageCount} page(s); must be ≤ ${pageCount}`);
    }
    const rows = await ctx.db
      .select({
        page: documentPages.page,
        text: documentPages.text,
        ocrState: documentPages.ocrState,
        ocrConfidence: documentPages.ocrConfidence,
      })
      .from(documentPages)
      .where(
        and(eq(documentPages.documentId, doc.id), gte(documentPages.page, from), lte(documentPages.page, to)),
      )
      .orderBy(asc(documentPages.page));
    const pages: { page: number; text: string; ocr_confidence?: number | null; unreadable?: boolean }[] = [];
    let chars = 0;
    for (const row of rows) {
      if (pages.length > 0 && chars + row.text.length > MAX_CHARS_PER_CALL) break;
      // Text-layer pages are as they were; a scanned page says how sure OCR was, and whether it read it at all.
      pages.push(
        row.ocrState === null
          ? { page: row.page, text: row.text }
          : {
              page: row.page,
              text: row.text,
              ocr_confidence: row.ocrConfidence === null ? null : Math.round(row.ocrConfidence * 100) / 100,
              ...(row.ocrState === 'unreadable' ? { unreadable: true } : {}),
            },
      );
      chars += row.text.length;
    }
    const last = pages.at(-1)?.page ?? from - 1;
    return {
      document_id: doc.id,
      title: doc.title,
      page_count: pageCount,
      pages,
      next_page: last < pageCount ? last + 1 : null,
    };
  },
});
