// Where an extracted item comes from (docs/contract.md "Extraction"): the document, the page, character
// offsets into that page's text exactly as document_text_get returns it, the matched text, and the
// extractor's version. Every extracted table carries these columns (src/extractors/provenance.ts returns them).
import { integer, text, uuid } from 'drizzle-orm/pg-core';
import { documents } from './documents.ts';

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

/** A provenance as tools return it and as a jsonb column stores it. */
export interface Provenance {
  document_id: string;
  page: number;
  start: number;
  end: number;
  text: string;
  extractor_version: string;
}
