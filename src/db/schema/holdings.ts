// Holdings (הלכות) found by rule in library and internal documents, under the owner's review; the precedents
// an agent pins to a section of a case's decision; and the style corpus cut into the parts of a decision.
// Extracted rows carry provenance (src/extractors/provenance.ts): a re-run keeps the rows it finds again
// (same ids), drops only its own undecided rows it no longer finds, and never touches a reviewed holding.

import { bigint, index, integer, pgTable, text, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from '../orm.ts';
import { cases } from './cases.ts';
import { createdAt, timestamptz, updatedAt } from './columns.ts';
import { documents } from './documents.ts';
import { provenanceColumns } from './provenance.ts';
import { outcomes } from './vocabulary.ts';

export const holdingStatuses = ['pending', 'approved', 'rejected'] as const;
export type HoldingStatus = (typeof holdingStatuses)[number];
export const holdingDecisions = ['approve', 'reject', 'edit'] as const;
export type HoldingDecision = (typeof holdingDecisions)[number];
/** extracted: found by the rules; recorded: added or re-quoted by an agent (halacha_record). */
export const holdingOrigins = ['extracted', 'recorded'] as const;
export type HoldingOrigin = (typeof holdingOrigins)[number];

/**
 * A candidate holding: the paragraph the rules found (provenance `text`), the cue that marked it, and once
 * reviewed the approved wording (an edit keeps the extracted text beside it), the topic and who decided why.
 */
export const holdings = pgTable(
  'holdings',
  {
    id: uuid('id').primaryKey(),
    /** Creation order: the pending queue is served oldest first by it. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    status: text('status', { enum: holdingStatuses }).notNull().default('pending'),
    /** A recorded candidate is the agent's: a re-run of the extractor never drops or rewrites it. */
    origin: text('origin', { enum: holdingOrigins }).notNull().default('extracted'),
    cue: text('cue').notNull(),
    /** The owner's wording when the review edited it; null: the extracted text stands. */
    approvedText: text('approved_text'),
    topic: text('topic'),
    reviewedBy: text('reviewed_by'),
    reviewReason: text('review_reason'),
    reviewedAt: timestamptz('reviewed_at'),
    ...provenanceColumns(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('holdings_span').on(t.documentId, t.page, t.start, t.end),
    index('holdings_status_seq_idx').on(t.status, t.seq),
  ],
);

/** Every review of a holding, once per (holding, decision, content): the durable retry key, and the audit. */
export const holdingReviews = pgTable(
  'holding_reviews',
  {
    id: uuid('id').primaryKey(),
    holdingId: uuid('holding_id')
      .notNull()
      .references(() => holdings.id, { onDelete: 'cascade' }),
    decision: text('decision', { enum: holdingDecisions }).notNull(),
    /** The edited wording and the topic, as one key: JSON [text, topic]. */
    content: text('content').notNull(),
    text: text('text'),
    topic: text('topic'),
    reason: text('reason'),
    agent: text('agent').notNull(),
    owner: text('owner'),
    createdAt: createdAt(),
  },
  (t) => [unique('holding_reviews_key').on(t.holdingId, t.decision, t.content)],
);

/**
 * A quote from a ruling or decision pinned to a section of a case's decision. The natural key is the case,
 * the section, the citation's proceeding key and the quote normalised for whitespace and quote marks; a
 * detached precedent keeps its row (detached_at) and frees its key.
 */
export const casePrecedents = pgTable(
  'case_precedents',
  {
    id: uuid('id').primaryKey(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id),
    section: text('section').notNull(),
    sectionKey: text('section_key').notNull(),
    citation: text('citation').notNull(),
    citationKey: text('citation_key').notNull(),
    quote: text('quote').notNull(),
    quoteKey: text('quote_key').notNull(),
    documentId: uuid('document_id').references(() => documents.id),
    page: integer('page'),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    detachedAt: timestamptz('detached_at'),
    detachedBy: text('detached_by'),
  },
  (t) => [
    uniqueIndex('case_precedents_key')
      .on(t.caseId, t.sectionKey, t.citationKey, t.quoteKey)
      .where(sql`${t.detachedAt} is null`),
    index('case_precedents_case_seq_idx').on(t.caseId, t.seq),
    index('case_precedents_citation_idx').on(t.citationKey, t.seq),
  ],
);

export const stylePartNames = [
  'header',
  'parties',
  'background',
  'claims',
  'discussion',
  'outcome',
  'signatures',
] as const;
export type StylePart = (typeof stylePartNames)[number];

/** A part of a style-corpus decision on one page (a part over two pages is two rows, in order). */
export const styleSegments = pgTable(
  'style_segments',
  {
    id: uuid('id').primaryKey(),
    part: text('part', { enum: stylePartNames }).notNull(),
    /** Reading order within the document. */
    position: integer('position').notNull(),
    /** The heading that opened the part, as written; null for the header, the parties and the signatures. */
    heading: text('heading'),
    ...provenanceColumns(),
    createdAt: createdAt(),
  },
  (t) => [unique('style_segments_position').on(t.documentId, t.position)],
);

/** Which segmenter version last enriched a style document, and the decision's outcome it read. */
export const styleEnrichments = pgTable('style_enrichments', {
  documentId: uuid('document_id')
    .primaryKey()
    .references(() => documents.id, { onDelete: 'cascade' }),
  segmenterVersion: text('segmenter_version').notNull(),
  outcome: text('outcome', { enum: outcomes }),
  segments: integer('segments').notNull(),
  enrichedAt: timestamptz('enriched_at').notNull().defaultNow(),
});
