// What the owner and the chair decide about a draft, and what the rules found in it: directions proposed and
// approved (one approved per case), the chair's feedback, and the stored results of draft_validate.

import { bigint, index, integer, jsonb, pgTable, text, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from '../orm.ts';
import { cases } from './cases.ts';
import { createdAt, timestamptz } from './columns.ts';
import { outcomes } from './vocabulary.ts';

export const directionStatuses = ['proposed', 'approved', 'superseded', 'rejected'] as const;
export type DirectionStatus = (typeof directionStatuses)[number];

/**
 * A direction for the decision: a proposed outcome with its rationale. The same content proposed again is the
 * same row; at most one direction of a case is approved, and approving another supersedes it.
 */
export const directions = pgTable(
  'directions',
  {
    id: uuid('id').primaryKey(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id),
    title: text('title').notNull(),
    rationale: text('rationale').notNull(),
    outcome: text('outcome', { enum: outcomes }).notNull(),
    argumentIds: jsonb('argument_ids').$type<string[]>().notNull(),
    /** SHA-256 of title, rationale, outcome and arguments: the natural key within the case. */
    contentHash: text('content_hash').notNull(),
    status: text('status', { enum: directionStatuses }).notNull().default('proposed'),
    proposedBy: text('proposed_by').notNull(),
    createdAt: createdAt(),
    approvedBy: text('approved_by'),
    approvedAt: timestamptz('approved_at'),
    /** The owner's reason given at the gate. */
    approvalReason: text('approval_reason'),
    supersededAt: timestamptz('superseded_at'),
    supersededBy: uuid('superseded_by'),
    /** The owner who declined a proposed direction, when and why (cleared if it is approved later). */
    rejectedBy: text('rejected_by'),
    rejectedAt: timestamptz('rejected_at'),
    rejectionReason: text('rejection_reason'),
  },
  (t) => [
    unique('directions_content').on(t.caseId, t.contentHash),
    uniqueIndex('directions_one_approved').on(t.caseId).where(sql`${t.status} = 'approved'`),
    index('directions_case_seq_idx').on(t.caseId, t.seq),
  ],
);

export const feedbackKinds = ['style', 'substance', 'citation', 'structure'] as const;
export type FeedbackKind = (typeof feedbackKinds)[number];

/**
 * A remark of the chair, about one case or about drafting in general, on one kind of block or the whole
 * decision. `naturalKey` (case, block kind, kind, normalised text) makes a repeat the same remark.
 */
export const chairFeedback = pgTable(
  'chair_feedback',
  {
    id: uuid('id').primaryKey(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    caseId: uuid('case_id').references(() => cases.id),
    blockKind: text('block_kind'),
    kind: text('kind', { enum: feedbackKinds }).notNull(),
    text: text('text').notNull(),
    naturalKey: text('natural_key').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('chair_feedback_key').on(t.naturalKey),
    index('chair_feedback_kind_idx').on(t.blockKind, t.seq),
    index('chair_feedback_case_idx').on(t.caseId, t.seq),
  ],
);

/**
 * One result of draft_validate over a target (the draft, or a case document). The same target in the same
 * state with the same findings is one row whose `checkedAt` moves: the last check is always the latest row.
 */
export const validationRuns = pgTable(
  'validation_runs',
  {
    id: uuid('id').primaryKey(),
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id),
    /** 'draft', or the id of the case document checked. */
    target: text('target').notNull(),
    /** SHA-256 of what was checked (block versions or document text) and of what was found. */
    resultHash: text('result_hash').notNull(),
    errors: integer('errors').notNull(),
    warnings: integer('warnings').notNull(),
    couldNotCheck: integer('could_not_check').notNull(),
    /** The whole result as draft_validate returned it (findings, citations, quotes, what was not checked). */
    result: jsonb('result').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    checkedAt: timestamptz('checked_at').notNull().defaultNow(),
  },
  (t) => [
    unique('validation_runs_result').on(t.caseId, t.target, t.resultHash),
    index('validation_runs_case_idx').on(t.caseId, t.target, t.checkedAt),
  ],
);
