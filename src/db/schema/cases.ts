import { date, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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

/** A hearing of the case: its date and, optionally, what it was for. */
export interface Hearing {
  /** YYYY-MM-DD */
  date: string;
  note: string | null;
}

/**
 * The dates that drive a case's work, one row per case (case_dates_set): when the appeal was filed, when the
 * response came in, the hearings, and the date the decision is due by. Absent until first set.
 */
export const caseDates = pgTable('case_dates', {
  caseId: uuid('case_id')
    .primaryKey()
    .references(() => cases.id),
  filingDate: date('filing_date', { mode: 'string' }),
  responseDate: date('response_date', { mode: 'string' }),
  hearings: jsonb('hearings').$type<Hearing[]>().notNull().default([]),
  decisionDueDate: date('decision_due_date', { mode: 'string' }),
  updatedBy: text('updated_by').notNull(),
  updatedAt: updatedAt(),
});

export type CaseDatesRow = typeof caseDates.$inferSelect;

/** A panel member's place on the committee's panel. */
export const panelRoles = ['chair', 'member'] as const;
export type PanelRole = (typeof panelRoles)[number];

/** One member of the panel: the name as signed, the role, and whether the member signs the decision. */
export interface PanelMember {
  name: string;
  role: PanelRole;
  /** The title printed under the signature line, e.g. «יו"ר הוועדה»; null: the role's usual title. */
  title: string | null;
  signs: boolean;
}

/** The panel that hears and signs a case, and the deciding appraiser (שמאי מכריע), one row per case (case_panel_set). */
export const casePanels = pgTable('case_panels', {
  caseId: uuid('case_id')
    .primaryKey()
    .references(() => cases.id),
  members: jsonb('members').$type<PanelMember[]>().notNull().default([]),
  decidingAppraiser: text('deciding_appraiser'),
  updatedBy: text('updated_by').notNull(),
  updatedAt: updatedAt(),
});

export type CasePanelRow = typeof casePanels.$inferSelect;
