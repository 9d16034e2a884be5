// What draft_validate returns and stores: findings with code, severity, block and provenance; a verdict per
// citation and per quote; and what could not be checked, listed rather than dropped.
import * as z from 'zod';
import { citationVerdicts } from './sources.ts';

export const severities = ['error', 'warning'] as const;
export const quoteVerdicts = ['verbatim', 'altered', 'not_found', 'could_not_check'] as const;

export const MAX_FINDINGS = 500;
export const MAX_CITATIONS_CHECKED = 300;
export const MAX_QUOTES_CHECKED = 300;
export const MAX_NOT_CHECKED = 100;
export const MAX_HOLDINGS = 10;

export const provenanceShape = z.object({
  block_version: z.int().nullable().describe('The version of the block checked'),
  document_id: z.uuid().nullable().describe('The document it concerns (the target, a claim’s, a source)'),
  page: z.int().nullable(),
  claim_id: z.uuid().nullable(),
  fact_id: z.uuid().nullable(),
  excerpt: z.string().nullable().describe('The words concerned, cut to 200 characters'),
});

export const findingOutput = z.object({
  code: z.string().describe('What rule, e.g. required_block_missing, claim_unanswered, outcome_mismatch'),
  severity: z.enum(severities),
  block: z.string().nullable().describe('The block key; null for the draft as a whole or a document'),
  message: z.string(),
  provenance: provenanceShape,
});
export type Finding = z.output<typeof findingOutput>;

export const citationCheckOutput = z.object({
  block: z.string().nullable(),
  page: z.int().nullable().describe('The page of the target document (document targets)'),
  text: z.string().describe('The citation as written'),
  key: z.string().describe('Proceeding and number as matched'),
  verdict: z.enum(citationVerdicts),
  source: z
    .object({
      document_id: z.uuid(),
      corpus: z.enum(['library', 'internal']),
      number: z.string(),
      parties: z.string().nullable(),
    })
    .nullable()
    .describe('The ruling or decision it resolved to'),
  detail: z.string().nullable().describe('Why the verdict, when not resolved'),
  holdings: z
    .array(z.string())
    .max(MAX_HOLDINGS)
    .describe('The source’s approved holdings, to judge whether it supports the point (once recorded)'),
});
export type CitationCheck = z.output<typeof citationCheckOutput>;

export const quoteCheckOutput = z.object({
  block: z.string().nullable(),
  page: z.int().nullable(),
  quote: z.string().describe('The quoted words, cut to 300 characters'),
  citation: z.string().nullable().describe('The citation it is attributed to'),
  verdict: z.enum(quoteVerdicts),
  similarity: z.number().describe('1 for verbatim; at least 0.85 for altered'),
  diff: z.string().nullable().describe('altered: the source’s words left out (−) and words put in (+)'),
  source_document_id: z.uuid().nullable(),
  source_page: z.int().nullable(),
});
export type QuoteCheck = z.output<typeof quoteCheckOutput>;

export const notCheckedOutput = z.object({
  what: z.string(),
  reason: z.string(),
});
export type NotChecked = z.output<typeof notCheckedOutput>;

export const cut = (text: string, max: number) => {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

export const noProvenance = (): Finding['provenance'] => ({
  block_version: null,
  document_id: null,
  page: null,
  claim_id: null,
  fact_id: null,
  excerpt: null,
});
