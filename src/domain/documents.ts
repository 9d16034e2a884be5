import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { ToolError } from '../contract/errors.ts';
import { type DocumentRow, documentCorpora, documents } from '../db/schema/documents.ts';
import type { Db } from '../db/types.ts';

/** A document as the document tools return it (never its bytes or text). */
export const documentView = (row: DocumentRow) => ({
  id: row.id,
  corpus: row.corpus,
  case_id: row.caseId,
  title: row.title,
  filename: row.filename,
  media_type: row.mediaType,
  byte_size: row.byteSize,
  sha256: row.sha256,
  number: row.number,
  decision_date: row.decisionDate,
  court: row.court,
  committee: row.committee,
  parties: row.parties,
  status: row.status,
  error: row.error,
  page_count: row.pageCount,
  created_by: row.createdBy,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

export type DocumentView = ReturnType<typeof documentView>;

export const documentIdInput = z
  .uuid()
  .describe('The document id (a UUID returned by document_list, a search hit or an upload)');

export const corpusInput = z
  .enum(documentCorpora)
  .describe(
    'case: a case file’s documents; style: the chair’s past decisions kept as writing examples; ' +
      'internal: the committee’s own decisions; library: external rulings',
  );

/** A document exists (documents are not soft-deleted); otherwise not_found. */
export async function loadDocument(db: Db, id: string): Promise<DocumentRow> {
  const rows = await db.select().from(documents).where(eq(documents.id, id)).limit(1);
  const row = rows[0];
  if (row === undefined) {
    throw new ToolError('not_found', `No document with id ${id}`, {
      details: { document_id: id },
      hint: 'Use document_list (by case or corpus) or a search tool to find document ids.',
    });
  }
  return row;
}
