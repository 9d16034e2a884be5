import * as z from 'zod';
import type { casePrecedents } from '../db/schema/holdings.ts';

/** A quote for the natural key: every run of whitespace one space, every quote mark one of two. */
export const quoteKey = (quote: string): string =>
  quote
    .replace(/[\u05F4\u201C\u201D\u201E\u00AB\u00BB]/g, '"')
    .replace(/[\u05F3\u2018\u2019\u0060\u00B4]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();

/** A section name for the natural key: the drafting block names, any case, any spacing. */
export const sectionKey = (section: string): string => section.replace(/\s+/g, ' ').trim().toLowerCase();

export const precedentOutput = z.object({
  precedent_id: z.uuid(),
  case_id: z.uuid(),
  case_number: z.string(),
  section: z.string().describe('The section of the case’s decision it supports'),
  citation: z.string().describe('As given'),
  citation_key: z.string().describe('The proceeding it names, normalised (one key per proceeding)'),
  quote: z.string(),
  document_id: z.uuid().nullable().describe('The ruling or decision quoted, when given'),
  cited_document_id: z
    .uuid()
    .nullable()
    .describe('The library or internal document of that number: the one given, else one found by its number'),
  page: z.int().nullable(),
  created_by: z.string(),
  created_at: z.iso.datetime(),
});

type PrecedentRow = typeof casePrecedents.$inferSelect;

export const precedentView = (
  p: PrecedentRow,
  caseNumber: string,
  cited: ReadonlyMap<string, string>,
): z.output<typeof precedentOutput> => ({
  precedent_id: p.id,
  case_id: p.caseId,
  case_number: caseNumber,
  section: p.section,
  citation: p.citation,
  citation_key: p.citationKey,
  quote: p.quote,
  document_id: p.documentId,
  cited_document_id: p.documentId ?? cited.get(p.citationKey) ?? null,
  page: p.page,
  created_by: p.createdBy,
  created_at: p.createdAt.toISOString(),
});
