// Provenance as every tool returns it (the columns and the stored shape: src/db/schema/provenance.ts).
import * as z from 'zod';
import type { Provenance } from '../db/schema/provenance.ts';

export const provenanceOutput = z.object({
  document_id: z.uuid(),
  page: z.int().describe('1-based page of the document'),
  start: z.int().describe('Offset of the first character in the page text (document_text_get)'),
  end: z.int().describe('Offset just past the last character'),
  text: z.string().describe('The text matched'),
  extractor_version: z.string(),
}) satisfies z.ZodType<Provenance>;

/** A row's provenance as tools return it. */
export const provenanceOf = (row: {
  documentId: string;
  page: number;
  start: number;
  end: number;
  text: string;
  extractorVersion: string;
}): Provenance => ({
  document_id: row.documentId,
  page: row.page,
  start: row.start,
  end: row.end,
  text: row.text,
  extractor_version: row.extractorVersion,
});
