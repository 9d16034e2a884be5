// The decision as drafted (docs/drafting.md): every version of every block, the DOCX exports with the
// block versions and exported text hashes they hold, and the chair's final versions taken back, with each
// block's final text, edit ratio, tracked changes and comments.
import {
  bigint,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { cases } from './cases.ts';
import { createdAt } from './columns.ts';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  // node-postgres returns a Buffer, PGlite a Uint8Array: both become a plain Uint8Array.
  fromDriver: (value) => new Uint8Array(value.buffer, value.byteOffset, value.byteLength),
});

/** A decision's blocks, in reading order (src/drafting/blocks.ts: which are required, their headings). */
export const blockKinds = [
  'header',
  'background',
  'appellant_claims',
  'respondent_claims',
  'discussion',
  'outcome',
  'costs',
  'signature',
] as const;
export type BlockKind = (typeof blockKinds)[number];

/** A citation a block carries, as stored (src/drafting/blocks.ts validates it: citationInput). */
export interface Citation {
  text: string;
  number?: string | undefined;
  parties?: string | undefined;
  pinpoint?: string | undefined;
  quote?: string | undefined;
}

export const blockSources = ['write', 'edit'] as const;

/**
 * One version of one block of a case's decision. A block is (case, key); each write or edit adds a version
 * (the previous stays). `content_hash` is the canonical content's: the same content as the current version
 * is a replay, not a new version.
 */
export const draftBlocks = pgTable(
  'draft_blocks',
  {
    id: uuid('id').primaryKey(),
    /** Insertion order: a block's first version's seq orders blocks of one kind (several discussions). */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id),
    key: text('key').notNull(),
    kind: text('kind', { enum: blockKinds }).notNull(),
    version: integer('version').notNull(),
    title: text('title'),
    text: text('text').notNull(),
    claimIds: jsonb('claim_ids').$type<string[]>().notNull(),
    argumentIds: jsonb('argument_ids').$type<string[]>().notNull(),
    citations: jsonb('citations').$type<Citation[]>().notNull(),
    contentHash: text('content_hash').notNull(),
    source: text('source', { enum: blockSources }).notNull(),
    /** The agent that wrote this version (or applied the edit). */
    author: text('author').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('draft_blocks_version').on(t.caseId, t.key, t.version),
    index('draft_blocks_case_seq_idx').on(t.caseId, t.seq),
  ],
);

export type DraftBlockRow = typeof draftBlocks.$inferSelect;

/** A block as an export holds it: the version and the hash of the text written into the file. */
export interface ExportedBlock {
  key: string;
  kind: string;
  version: number;
  text_hash: string;
  paragraphs: number;
}

/**
 * A DOCX export of a case's draft. `blocks_hash` names the block versions it holds: the same versions export
 * to the same export (idempotent). `sha256` is the file's.
 */
export const draftExports = pgTable(
  'draft_exports',
  {
    id: uuid('id').primaryKey(),
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id),
    blocksHash: text('blocks_hash').notNull(),
    sha256: text('sha256').notNull(),
    byteSize: integer('byte_size').notNull(),
    content: bytea('content').notNull(),
    blocks: jsonb('blocks').$type<ExportedBlock[]>().notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('draft_exports_blocks').on(t.caseId, t.blocksHash),
    index('draft_exports_sha256_idx').on(t.sha256),
  ],
);

export type DraftExportRow = typeof draftExports.$inferSelect;

export const finalFormats = ['docx', 'text'] as const;

/** The chair's signed final version of a case's decision; the same file again (its SHA-256) is a replay. */
export const finalVersions = pgTable(
  'final_versions',
  {
    id: uuid('id').primaryKey(),
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id),
    sha256: text('sha256').notNull(),
    format: text('format', { enum: finalFormats }).notNull(),
    /** The export whose anchors the file kept (null for text, or a file without anchors). */
    exportId: uuid('export_id').references(() => draftExports.id),
    /** The final text: the document with every tracked revision accepted. */
    text: text('text').notNull(),
    /** The internal decision it was added as. */
    documentId: uuid('document_id'),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
  },
  (t) => [unique('final_versions_file').on(t.caseId, t.sha256)],
);

export type FinalVersionRow = typeof finalVersions.$inferSelect;

/** A tracked change in the final version: inserted or deleted text, by whom and when. */
export interface TrackedChange {
  type: 'insertion' | 'deletion';
  author: string | null;
  date: string | null;
  text: string;
}

/** A comment the chair left, on the text it is anchored to. */
export interface FinalComment {
  author: string | null;
  date: string | null;
  text: string;
  anchored_text: string;
}

/** A block of an export, as found in the final version: its final text and how much the chair changed it. */
export const finalVersionBlocks = pgTable(
  'final_version_blocks',
  {
    finalId: uuid('final_id')
      .notNull()
      .references(() => finalVersions.id, { onDelete: 'cascade' }),
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id),
    key: text('key').notNull(),
    kind: text('kind', { enum: blockKinds }).notNull(),
    exportedVersion: integer('exported_version').notNull(),
    exportedText: text('exported_text').notNull(),
    /** null when the block's anchor was not found in the file. */
    finalText: text('final_text'),
    /** Character edit distance between exported and final text over the longer length (0 = untouched). */
    editRatio: doublePrecision('edit_ratio'),
    changes: jsonb('changes').$type<TrackedChange[]>().notNull(),
    comments: jsonb('comments').$type<FinalComment[]>().notNull(),
  },
  (t) => [
    unique('final_version_blocks_key').on(t.finalId, t.key),
    index('final_version_blocks_kind_idx').on(t.kind),
  ],
);

export type FinalVersionBlockRow = typeof finalVersionBlocks.$inferSelect;
