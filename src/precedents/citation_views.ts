// A citation as citation_list and citation_incoming_list return it: its key, treatment with the cue, the
// citing passage and where it is written, and what it resolves to.
import * as z from 'zod';
import type { DocumentRow } from '../db/schema/documents.ts';
import type { CitationRow } from '../db/schema/precedents.ts';
import { treatments } from '../db/schema/vocabulary.ts';
import { provenanceOf, provenanceOutput } from '../extractors/provenance.ts';

export const documentRef = z.object({
  document_id: z.uuid(),
  title: z.string(),
  case_id: z.uuid().nullable(),
  number: z.string().nullable(),
  decision_date: z.string().nullable(),
});

export const citationOutput = z.object({
  citation_id: z.uuid(),
  key: z.string(),
  treatment: z.enum(treatments),
  cue: z.object({ text: z.string(), start: z.int(), end: z.int() }).nullable(),
  passage: z.string(),
  provenance: provenanceOutput,
});

export const refOf = (
  d: Pick<DocumentRow, 'id' | 'title' | 'caseId'>,
  number: string | null,
  date: string | null,
): z.output<typeof documentRef> => ({
  document_id: d.id,
  title: d.title,
  case_id: d.caseId,
  number,
  decision_date: date,
});

export const citationView = (c: CitationRow): z.output<typeof citationOutput> => ({
  citation_id: c.id,
  key: c.key,
  treatment: c.treatment,
  cue:
    c.cue === null || c.cueStart === null || c.cueEnd === null
      ? null
      : { text: c.cue, start: c.cueStart, end: c.cueEnd },
  passage: c.passage,
  provenance: provenanceOf(c),
});
