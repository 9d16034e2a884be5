// The precedent library (docs/contract.md "Extraction"): the metadata of rulings and of the committee's own
// decisions with each field's source, the citation graph between documents, and the rulings cited but absent
// (missing precedents). Extracted rows carry provenance (src/extractors/provenance.ts); a re-run replaces only
// what its extractor wrote.

import { date, index, integer, jsonb, pgTable, text, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from '../orm.ts';
import { cases } from './cases.ts';
import { createdAt, timestamptz } from './columns.ts';
import { documents } from './documents.ts';
import type { Provenance } from './provenance.ts';
import {
  type FieldSource,
  type MetadataField,
  missingResolutions,
  missingStatuses,
  outcomes,
  practiceAreas,
  treatments,
} from './vocabulary.ts';

/**
 * The metadata of a library or internal document: each field as the uploader gave it, else as the rules read
 * it (`sources` says which; `provenance` where an extracted field was read). `number_key` is the normalised
 * proceeding number (src/legal/proceedings.ts) that citations resolve to.
 */
export const decisionMetadata = pgTable(
  'decision_metadata',
  {
    documentId: uuid('document_id')
      .primaryKey()
      .references(() => documents.id, { onDelete: 'cascade' }),
    /** The court (library) or committee (internal). */
    court: text('court'),
    proceeding: text('proceeding'),
    number: text('number'),
    numberKey: text('number_key'),
    decisionDate: date('decision_date', { mode: 'string' }),
    judges: jsonb('judges').$type<string[]>(),
    parties: text('parties'),
    outcome: text('outcome', { enum: outcomes }),
    /** The outcome of the decision under review, as the document recites it. */
    priorOutcome: text('prior_outcome', { enum: outcomes }),
    practiceArea: text('practice_area', { enum: practiceAreas }),
    sources: jsonb('sources').$type<Partial<Record<MetadataField, FieldSource>>>().notNull(),
    provenance: jsonb('provenance').$type<Partial<Record<MetadataField, Provenance>>>().notNull(),
    extractorVersion: text('extractor_version').notNull(),
    extractedAt: timestamptz('extracted_at').notNull().defaultNow(),
  },
  (t) => [
    index('decision_metadata_number_key_idx').on(t.numberKey),
    index('decision_metadata_date_idx').on(t.decisionDate, t.documentId),
  ],
);

/**
 * A citation of a ruling or decision inside a document, under its normalised key, resolved to the library
 * or internal document with that number when one exists (`cited_document_id`), with its treatment by rule
 * (the cue and where it is). `case_id` is the citing case document's case: a deleted case hides its citations.
 */
export const citations = pgTable(
  'citations',
  {
    id: uuid('id').primaryKey(),
    caseId: uuid('case_id').references(() => cases.id),
    key: text('key').notNull(),
    proceeding: text('proceeding').notNull(),
    citedDocumentId: uuid('cited_document_id').references(() => documents.id, { onDelete: 'set null' }),
    treatment: text('treatment', { enum: treatments }).notNull(),
    cue: text('cue'),
    cueStart: integer('cue_start'),
    cueEnd: integer('cue_end'),
    /** The sentence around the citation (the citing passage). */
    passage: text('passage').notNull(),
    fingerprint: text('fingerprint').notNull(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    page: integer('page').notNull(),
    start: integer('start').notNull(),
    end: integer('end').notNull(),
    text: text('text').notNull(),
    extractorVersion: text('extractor_version').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('citations_finding').on(t.documentId, t.fingerprint),
    index('citations_key_idx').on(t.key),
    // Who cites a document, in the order citation_incoming_list pages them.
    index('citations_cited_idx').on(t.citedDocumentId, t.createdAt, t.id),
  ],
);

/**
 * A ruling or decision cited but not in the library: one open row per normalised citation (opened by hand or
 * by citation_extract), closed as `found` (a matching upload, or by hand with the document) or `dismissed`.
 */
export const missingPrecedents = pgTable(
  'missing_precedents',
  {
    id: uuid('id').primaryKey(),
    key: text('key').notNull(),
    citation: text('citation').notNull(),
    caseId: uuid('case_id').references(() => cases.id),
    context: text('context').notNull(),
    status: text('status', { enum: missingStatuses }).notNull().default('open'),
    resolution: text('resolution', { enum: missingResolutions }),
    documentId: uuid('document_id').references(() => documents.id, { onDelete: 'set null' }),
    /** The citation that opened it, when citation_extract did. */
    citationId: uuid('citation_id').references(() => citations.id, { onDelete: 'set null' }),
    reason: text('reason'),
    createdBy: text('created_by').notNull(),
    closedBy: text('closed_by'),
    closedAt: timestamptz('closed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('missing_precedents_open_key').on(t.key).where(sql`${t.status} = 'open'`),
    index('missing_precedents_status_idx').on(t.status, t.createdAt, t.id),
  ],
);

export type DecisionMetadataRow = typeof decisionMetadata.$inferSelect;
export type CitationRow = typeof citations.$inferSelect;
export type MissingPrecedentRow = typeof missingPrecedents.$inferSelect;
