import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from '../orm.ts';
import { createdAt, timestamptz, updatedAt } from './columns.ts';
import { outcomes, practiceAreas } from './vocabulary.ts';

export const caseStatuses = ['open', 'drafting', 'decided', 'archived'] as const;

export const cases = pgTable(
  'cases',
  {
    id: uuid('id').primaryKey(),
    /** The committee's file number (e.g. "ערר 1234/25"): the natural key of case_create. */
    caseNumber: text('case_number').notNull(),
    title: text('title').notNull(),
    appellant: text('appellant'),
    respondent: text('respondent'),
    committee: text('committee'),
    practiceArea: text('practice_area', { enum: practiceAreas }),
    propertyAddress: text('property_address'),
    status: text('status', { enum: caseStatuses }).notNull().default('open'),
    outcome: text('outcome', { enum: outcomes }),
    notes: text('notes'),
    finalText: text('final_text'),
    finalTextAt: timestamptz('final_text_at'),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamptz('deleted_at'),
    deletedBy: text('deleted_by'),
    deleteReason: text('delete_reason'),
  },
  (t) => [
    uniqueIndex('cases_case_number_key').on(t.caseNumber),
    index('cases_list_idx').on(t.createdAt, t.id),
    index('cases_live_status_idx').on(t.status).where(sql`${t.deletedAt} is null`),
  ],
);

export type CaseRow = typeof cases.$inferSelect;
