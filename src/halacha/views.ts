// A holding as the halacha tools return it: the extracted text and, once reviewed, the approved wording beside
// it, with the review and where the text is written.
import * as z from 'zod';
import { documentCorpora } from '../db/schema/documents.ts';
import { holdingOrigins, holdingStatuses, type holdings } from '../db/schema/holdings.ts';
import { provenanceOf, provenanceOutput } from '../extractors/provenance.ts';

export const holdingOutput = z.object({
  halacha_id: z.uuid(),
  status: z.enum(holdingStatuses).describe('pending review, approved or rejected'),
  text: z
    .string()
    .describe('The holding: the approved wording when the owner edited it, else the extracted text'),
  extracted_text: z.string().describe('The text as found in the document, always kept'),
  approved_text: z.string().nullable().describe('The owner’s wording, when the review edited it'),
  topic: z.string().nullable(),
  cue: z
    .string()
    .describe(
      'The holding cue that marked it (for a rule read by structure, its normative word or «ראו»; «recorded»: an agent quoted it)',
    ),
  origin: z.enum(holdingOrigins).describe('extracted by the rules, or recorded by an agent (halacha_record)'),
  document: z.object({
    id: z.uuid(),
    corpus: z.enum(documentCorpora),
    title: z.string(),
    number: z.string().nullable().describe('The ruling’s or decision’s number as given'),
  }),
  provenance: provenanceOutput,
  reviewed_by: z.string().nullable(),
  review_reason: z.string().nullable(),
  reviewed_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
});

export type HoldingRow = typeof holdings.$inferSelect;
export interface HoldingDocument {
  id: string;
  corpus: (typeof documentCorpora)[number];
  title: string;
  number: string | null;
}

export const holdingView = (h: HoldingRow, d: HoldingDocument): z.output<typeof holdingOutput> => ({
  halacha_id: h.id,
  status: h.status,
  text: h.approvedText ?? h.text,
  extracted_text: h.text,
  approved_text: h.approvedText,
  topic: h.topic,
  cue: h.cue,
  origin: h.origin,
  document: { id: d.id, corpus: d.corpus, title: d.title, number: d.number },
  provenance: provenanceOf(h),
  reviewed_by: h.reviewedBy,
  review_reason: h.reviewReason,
  reviewed_at: h.reviewedAt?.toISOString() ?? null,
  created_at: h.createdAt.toISOString(),
});
