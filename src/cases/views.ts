import * as z from 'zod';
import { type CaseRow, caseStatuses } from '../db/schema/cases.ts';
import { outcomes, practiceAreas } from '../db/schema/vocabulary.ts';
import { practiceAreaInput } from './practice_areas.ts';

const text = z.string().nullable();

/** The case as every case tool returns it. */
export const caseOutput = z.object({
  id: z.uuid().describe('The case id, taken by every other case tool'),
  case_number: z.string().describe('The committee case number, e.g. "ערר 1234/25"'),
  title: z.string().describe('Short title of the appeal'),
  appellant: text.describe('The appellant(s)'),
  respondent: text.describe('The respondent(s)'),
  committee: text.describe('The committee whose decision is appealed'),
  practice_area: z.enum(practiceAreas).nullable().describe('The practice area, else null'),
  property_address: text.describe('Address or block/parcel of the property'),
  status: z.enum(caseStatuses).describe('open → drafting → decided → archived'),
  outcome: z.enum(outcomes).nullable().describe('The outcome once set, else null'),
  notes: text.describe('Free notes for the team'),
  has_final_text: z.boolean().describe('Whether the final decision text exists (case_final_text_get)'),
  created_by: z.string().describe('The agent that opened the case'),
  created_at: z.iso.datetime().describe('When the case was opened'),
  updated_at: z.iso.datetime().describe('When it last changed'),
});

export type CaseView = z.output<typeof caseOutput>;

/** A case as lists and changes return it: what identifies it and where it stands (case_get has the rest). */
export const caseSummaryOutput = caseOutput.pick({
  id: true,
  case_number: true,
  title: true,
  practice_area: true,
  status: true,
  outcome: true,
  updated_at: true,
});

export type CaseSummary = z.output<typeof caseSummaryOutput>;

export const caseSummary = (row: CaseRow): CaseSummary => ({
  id: row.id,
  case_number: row.caseNumber,
  title: row.title,
  practice_area: row.practiceArea,
  status: row.status,
  outcome: row.outcome,
  updated_at: row.updatedAt.toISOString(),
});

export const caseView = (row: CaseRow): CaseView => ({
  id: row.id,
  case_number: row.caseNumber,
  title: row.title,
  appellant: row.appellant,
  respondent: row.respondent,
  committee: row.committee,
  practice_area: row.practiceArea,
  property_address: row.propertyAddress,
  status: row.status,
  outcome: row.outcome,
  notes: row.notes,
  has_final_text: row.finalText !== null,
  created_by: row.createdBy,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

const optionalText = (max: number, what: string) =>
  z.string().trim().min(1).max(max).optional().describe(what);

/** The descriptive fields case_create sets and case_update changes. */
export const caseFields = {
  title: optionalText(300, 'Short title, e.g. the property or the dispute'),
  appellant: optionalText(300, 'The appellant(s) (העוררים)'),
  respondent: optionalText(300, 'The respondent(s) (המשיבה), usually the local committee'),
  committee: optionalText(200, 'The committee whose decision is appealed'),
  practice_area: practiceAreaInput.optional(),
  property_address: optionalText(300, 'Address or block/parcel (גוש/חלקה)'),
  notes: z.string().max(10_000).optional().describe('Free notes for the team'),
};

export const caseStatusInput = z.enum(caseStatuses).describe('open → drafting → decided → archived');
