import * as z from 'zod';
import { liveCase } from '../cases/live.ts';
import { invalidArg, ToolError } from '../contract/errors.ts';
import { and, eq, getTableColumns, isNull, ne, or } from '../db/orm.ts';
import { cases } from '../db/schema/cases.ts';
import {
  DELETED_DOCUMENT,
  type DocumentRow,
  type DocumentStatus,
  documentCorpora,
  documentMediaTypes,
  documentPages,
  documentRoles,
  documentStatuses,
  documents,
  roleSources,
} from '../db/schema/documents.ts';
import type { Db } from '../db/types.ts';
import { MAX_PAGES } from './media.ts';

const text = z.string().nullable();

/** A document as the document tools return it (never its bytes or text). */
export const documentOutput = z.object({
  id: z.uuid(),
  corpus: z.enum(documentCorpora),
  case_id: z.uuid().nullable().describe('The case, for corpus "case"'),
  title: z.string(),
  filename: text,
  media_type: z.enum(documentMediaTypes).describe('As decided from the bytes'),
  byte_size: z.int(),
  sha256: z.string().describe('SHA-256 of the bytes, hex'),
  number: text.describe('internal/library: the decision’s or ruling’s number as cited'),
  decision_date: text.describe('internal/library: YYYY-MM-DD'),
  court: text.describe('library: the court'),
  committee: text.describe('internal: the committee'),
  parties: text.describe('internal/library: the parties as cited'),
  role: z.enum(documentRoles).nullable().describe('case: its role in the file'),
  role_source: z.enum(roleSources).nullable().describe('given by an agent, or detected from its first page'),
  status: z.enum(documentStatuses).describe('pending → extracting → ready | failed'),
  error: text.describe('Why extraction failed, when it did'),
  page_count: z.int().nullable().describe('Pages of extracted text, once ready'),
  ocr_pages: z.int().nullable().describe('Pages read by OCR (no text layer, or a garbage one), once ready'),
  unreadable_pages: z
    .array(z.int())
    .max(MAX_PAGES)
    .describe('Pages OCR could not read (blank, noise, too faint): their text is empty; rescan them'),
  created_by: z.string(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});

export type DocumentView = z.output<typeof documentOutput>;

/** A document not removed by document_delete: the condition every read of documents by case or corpus adds. */
export const liveDocument = ne(documents.status, DELETED_DOCUMENT);

/** The status a tool shows; a deleted document is never shown (every read filters it with liveDocument). */
export function shownStatus(status: DocumentRow['status']): DocumentStatus {
  if (status === DELETED_DOCUMENT) throw new Error('a deleted document reached a view');
  return status;
}

export const documentView = (row: DocumentRow): DocumentView => ({
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
  role: row.role,
  role_source: row.roleSource,
  status: shownStatus(row.status),
  error: row.error,
  page_count: row.pageCount,
  ocr_pages: row.ocrPageCount,
  unreadable_pages: row.unreadablePages ?? [],
  created_by: row.createdBy,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

/** A document as lists show it: what identifies it and whether its text is ready. */
export const documentSummaryOutput = documentOutput.pick({
  id: true,
  corpus: true,
  case_id: true,
  title: true,
  number: true,
  decision_date: true,
  role: true,
  status: true,
  error: true,
  page_count: true,
  ocr_pages: true,
  unreadable_pages: true,
  created_at: true,
});

export const documentSummary = (row: DocumentRow): z.output<typeof documentSummaryOutput> => ({
  id: row.id,
  corpus: row.corpus,
  case_id: row.caseId,
  title: row.title,
  number: row.number,
  decision_date: row.decisionDate,
  role: row.role,
  status: shownStatus(row.status),
  error: row.error,
  page_count: row.pageCount,
  ocr_pages: row.ocrPageCount,
  unreadable_pages: row.unreadablePages ?? [],
  created_at: row.createdAt.toISOString(),
});

export const documentIdInput = z
  .uuid()
  .describe('The document id (from document_list, a search hit or an upload)');

export const corpusInput = z
  .enum(documentCorpora)
  .describe(
    'case: a case’s documents; style: the chair’s writing examples; internal: the committee’s decisions; ' +
      'library: court rulings',
  );

/** The document, deleted or not, while its case (for a case document) is live; undefined otherwise. */
export async function findDocumentInLiveCase(db: Db, id: string): Promise<DocumentRow | undefined> {
  const rows = await db
    .select(getTableColumns(documents))
    .from(documents)
    .leftJoin(cases, eq(cases.id, documents.caseId))
    .where(and(eq(documents.id, id), or(isNull(documents.caseId), liveCase)))
    .limit(1);
  return rows[0];
}

export const documentNotFound = (id: string) =>
  new ToolError('not_found', `No document with id ${id}`, {
    details: { document_id: id },
    hint: 'Use document_list (by case or corpus) or a search tool to find document ids; deleted documents and the documents of a deleted case are not reachable.',
  });

/**
 * A document is reachable while it exists, is not deleted (document_delete) and, for a case document, while
 * its case is live: the documents of a deleted case are as unreachable as the case (docs/contract.md
 * "Grants and gates"). Otherwise not_found.
 */
export async function loadDocument(db: Db, id: string): Promise<DocumentRow> {
  const row = await findDocumentInLiveCase(db, id);
  if (row === undefined || row.status === DELETED_DOCUMENT) throw documentNotFound(id);
  return row;
}

/** invalid_state unless the document's text is extracted; `hint` says what the caller can do meanwhile. */
export function requireReady(doc: DocumentRow, hint: string): void {
  if (doc.status !== 'ready') {
    throw new ToolError('invalid_state', `The document's text is ${doc.status}, not extracted yet`, {
      details: { document_id: doc.id, status: doc.status },
      hint,
    });
  }
}

/** The text of one page of a ready document, or invalid_args (`page`) saying how many pages it has. */
export async function readyPage(db: Db, doc: DocumentRow, page: number): Promise<string> {
  const [row] = await db
    .select({ text: documentPages.text })
    .from(documentPages)
    .where(and(eq(documentPages.documentId, doc.id), eq(documentPages.page, page)));
  if (row === undefined) throw invalidArg('page', `the document has ${doc.pageCount ?? 0} page(s)`);
  return row.text;
}

export const roleInput = z.enum(documentRoles).describe('Role in the file (case)');
