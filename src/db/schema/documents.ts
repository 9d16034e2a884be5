import {
  check,
  customType,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  real,
  text,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { type SQL, sql } from '../orm.ts';
import { cases } from './cases.ts';
import { createdAt, timestamptz, updatedAt } from './columns.ts';

/** A case document's role in the file, and who gave it (an agent, or detected from its first page). */
export const documentRoles = [
  'appeal',
  'response',
  'appraisal',
  'deciding_appraisal',
  'advisory_appraisal',
  'protocol',
  'plan',
  'decision',
  /** Written summations («סיכומים מטעם …»). */
  'summation',
  /** «עיקרי טיעון»: a party's outline of argument. */
  'arguments',
  /** A decision on a request within the proceeding («החלטת ביניים», «החלטה בבקשה …»). */
  'interim_decision',
  /** A party's request within the proceeding («בקשה להארכת מועד», «בקשה מטעם העוררים …»). */
  'request',
  'other',
] as const;
export type DocumentRole = (typeof documentRoles)[number];

export const roleSources = ['given', 'detected'] as const;
export type RoleSource = (typeof roleSources)[number];

export const documentCorpora = ['case', 'style', 'internal', 'library'] as const;
export type DocumentCorpus = (typeof documentCorpora)[number];

export const documentMediaTypes = [
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'text/plain',
  'text/markdown',
  // Scans and photos: every page read by OCR.
  'image/png',
  'image/jpeg',
  'image/tiff',
] as const;
export type DocumentMediaType = (typeof documentMediaTypes)[number];

/** pending → extracting → ready | failed (error kept in `error`): the statuses a tool shows. */
export const documentStatuses = ['pending', 'extracting', 'ready', 'failed'] as const;
export type DocumentStatus = (typeof documentStatuses)[number];

/**
 * A case document removed by document_delete: the row and its bytes stay for audit, `error` holds the reason
 * and `updated_at` the time (the audit log says who); no tool reaches it. A text column, so no migration.
 */
export const DELETED_DOCUMENT = 'deleted';
const storedStatuses = [...documentStatuses, DELETED_DOCUMENT] as const;

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  // node-postgres returns a Buffer, PGlite a Uint8Array: both become a plain Uint8Array (pdf.js refuses a Buffer).
  fromDriver: (value) => new Uint8Array(value.buffer, value.byteOffset, value.byteLength),
});

/**
 * A document of one corpus: `case` (a case's appeal, responses, appraisals…, needs case_id), `style` (the
 * chair's past decisions as writing examples), `internal` (the committee's own decisions) and `library`
 * (external rulings). The natural key is (corpus, case_id, sha256 of the bytes), with a null case_id equal
 * to itself, so the same bytes uploaded twice to the same place are one document.
 */
export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey(),
    corpus: text('corpus', { enum: documentCorpora }).notNull(),
    caseId: uuid('case_id').references(() => cases.id),
    sha256: text('sha256').notNull(),
    mediaType: text('media_type', { enum: documentMediaTypes }).notNull(),
    byteSize: integer('byte_size').notNull(),
    filename: text('filename'),
    title: text('title').notNull(),
    /** internal/library metadata: the decision's or ruling's number, e.g. "ערר 6091/09", "ע"א 1108/97". */
    number: text('number'),
    decisionDate: date('decision_date', { mode: 'string' }),
    /** library: the court; internal: the committee. */
    court: text('court'),
    committee: text('committee'),
    parties: text('parties'),
    /** case: the document's role in the file (appeal, response, appraisal…); null until given or detected. */
    role: text('role', { enum: documentRoles }),
    /** "given" by an agent, or "detected" from the first page's headings once the text was extracted. */
    roleSource: text('role_source', { enum: roleSources }),
    status: text('status', { enum: storedStatuses }).notNull().default('pending'),
    error: text('error'),
    pageCount: integer('page_count'),
    /** Pages read by OCR (scans), once ready; null when every page had a text layer. */
    ocrPageCount: integer('ocr_page_count'),
    /** Pages OCR could not read (blank, noise, too faint), 1-based; reported, never silently empty. */
    unreadablePages: integer('unreadable_pages').array(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    extractedAt: timestamptz('extracted_at'),
    /**
     * The search index version its chunks were written with (SEARCH_INDEX_VERSION, src/search/normalize.ts);
     * null before versions were kept. A ready document of another version is indexed again (src/search/reindex.ts).
     */
    searchIndexVersion: text('search_index_version'),
  },
  (t) => [
    // Only case documents belong to a case.
    check('documents_case_corpus', sql`(${t.corpus} = 'case') = (${t.caseId} is not null)`),
    unique('documents_natural_key').on(t.corpus, t.caseId, t.sha256).nullsNotDistinct(),
    index('documents_case_list_idx').on(t.caseId, t.createdAt, t.id),
    index('documents_corpus_list_idx').on(t.corpus, t.createdAt, t.id),
  ],
);

/** The uploaded bytes, apart from the row so listing documents never reads them. */
export const documentBlobs = pgTable('document_blobs', {
  documentId: uuid('document_id')
    .primaryKey()
    .references(() => documents.id, { onDelete: 'cascade' }),
  bytes: bytea('bytes').notNull(),
});

/**
 * A page read by OCR: `pending` until its job reads it, then `read`, or `unreadable` (no text, or the
 * engine's confidence under the floor); null for a page whose text layer was read.
 */
export const ocrStates = ['pending', 'read', 'unreadable'] as const;
export type OcrState = (typeof ocrStates)[number];

/** Extracted text per page (1-based); replaced as a whole by each extraction. */
export const documentPages = pgTable(
  'document_pages',
  {
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    page: integer('page').notNull(),
    text: text('text').notNull(),
    ocrState: text('ocr_state', { enum: ocrStates }),
    /** The OCR engine's mean word confidence for the page, 0..1; null for a text-layer page. */
    ocrConfidence: real('ocr_confidence'),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.page] })],
);

/**
 * Search chunks: never cross a page. `norm_text` is the normalised surface text (the trigram re-rank of the
 * top candidates; misspellings go through search_terms); `terms` adds each Hebrew word's prefix-stripped forms; `tsv` / `surface_tsv` are their
 * stored `simple` tsvectors (full-text matching and ranking).
 */
export const documentChunks = pgTable(
  'document_chunks',
  {
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    page: integer('page').notNull(),
    chunkIndex: integer('chunk_index').notNull(),
    text: text('text').notNull(),
    normText: text('norm_text').notNull(),
    terms: text('terms').notNull(),
    /** Stored so ranking never re-parses the text: all forms (matching, main rank) and the surface forms (exact bonus). */
    tsv: tsvector('tsv')
      .notNull()
      .generatedAlwaysAs((): SQL => sql`to_tsvector('simple'::regconfig, ${documentChunks.terms})`),
    surfaceTsv: tsvector('surface_tsv')
      .notNull()
      .generatedAlwaysAs((): SQL => sql`to_tsvector('simple'::regconfig, ${documentChunks.normText})`),
  },
  (t) => [
    primaryKey({ columns: [t.documentId, t.chunkIndex] }),
    // A small pending list: every search reads all of it (up to 4 MB by default, ~200 pages after a bulk
    // read), and the insert that flushes it holds the index for the whole list.
    index('document_chunks_fts_idx').using('gin', t.tsv).with({ gin_pending_list_limit: 256 }),
  ],
);

export type DocumentRow = typeof documents.$inferSelect;

/**
 * Every distinct word (normalised, 3+ letters) of every indexed chunk, with a trigram index: the fuzzy
 * fallback finds the corpus words closest to a query word that matches nothing (a misspelling), then
 * searches with those. Cheap because words are short; never pruned (a stale word only finds nothing).
 */
export const searchTerms = pgTable('search_terms', { term: text('term').primaryKey() }, (t) => [
  index('search_terms_trgm_idx').using('gin', t.term.op('gin_trgm_ops')),
]);
