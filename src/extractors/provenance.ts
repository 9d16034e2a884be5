// Where an extracted item comes from (docs/contract.md "Extraction"): the document, the page, character
// offsets into that page's text exactly as document_text_get returns it, the matched text, and the
// extractor's version. Every extracted table carries these columns; every tool returns this shape.
import { integer, text, uuid } from 'drizzle-orm/pg-core';
import * as z from 'zod';
import { documents } from '../db/schema/documents.ts';

/**
 * The provenance columns, to spread into an extracted table. The document reference cascades: a document's
 * candidates have no meaning without it.
 */
export const provenanceColumns = () => ({
  documentId: uuid('document_id')
    .notNull()
    .references(() => documents.id, { onDelete: 'cascade' }),
  page: integer('page').notNull(),
  start: integer('start').notNull(),
  end: integer('end').notNull(),
  text: text('text').notNull(),
  extractorVersion: text('extractor_version').notNull(),
});

export const provenanceOutput = z.object({
  document_id: z.uuid(),
  page: z.int().describe('1-based page of the document'),
  start: z.int().describe('Offset of the first character in the page text (document_text_get)'),
  end: z.int().describe('Offset just past the last character'),
  text: z.string().describe('The text matched'),
  extractor_version: z.string(),
});

export type Provenance = z.output<typeof provenanceOutput>;

/** A row's provenance as tools return it. */
export const provenanceOf = (row: {
  documentId: string;
  page: number;
  start: number;
  end: number;
  text: string;
  extractorVersion: string;
}): Provenance => ({
  document_id: row.documentId,
  page: row.page,
  start: row.start,
  end: row.end,
  text: row.text,
  extractor_version: row.extractorVersion,
});
