// What draft_validate returns and stores: findings with code, severity, block (or the kind of block that
// should hold the fix), how to fix it, and provenance; a verdict per citation and per quote; and what could not
// be checked, listed rather than dropped.
import * as z from 'zod';
import { citationVerdicts } from './sources.ts';

/** A note (typography) is shown only when asked for and never decides validity. */
export const severities = ['error', 'warning', 'note'] as const;
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
  block: z
    .string()
    .nullable()
    .describe(
      'The block key; null when no block holds it (a missing block, an unanswered claim, a document)',
    ),
  block_kind: z
    .string()
    .nullable()
    .describe('The kind of block concerned, or that should hold the fix (claim_unanswered: discussion)'),
  message: z.string(),
  fix: z.string().describe('How to fix it'),
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

/** How to fix each finding, by code, when the rule gives no more particular advice. */
const FIXES: Record<string, string> = {
  required_block_missing: 'Write the block with block_write.',
  required_block_empty: 'Write the block’s text with block_write.',
  required_block_placeholder: 'Replace the placeholder with the block’s real text (block_write).',
  figure_implausible:
    'Give the figure as the appraisers found it (block_context_get lists the case’s appraisal facts).',
  claim_unanswered:
    'Answer the claim in a discussion block by its id: add it to the block’s claim_ids (block_write), or an argument that holds it to its argument_ids.',
  outcome_not_set: 'The owner sets the case’s outcome with outcome_set.',
  direction_mismatch: 'Approve a direction that leads to the case’s outcome, or set the outcome it leads to.',
  outcome_not_stated:
    'State the outcome in the outcome block: «הערר נדחה», «הערר מתקבל בחלקו», «הערר מתקבל».',
  outcome_ambiguous: 'State one outcome only in the outcome block.',
  outcome_mismatch:
    'State the case’s outcome in the outcome block, or have the owner set another (outcome_set).',
  header_case_number: 'Write the case number in the header as the case records it (case_get).',
  header_appellant: 'Name the appellant in the header as the case records it (case_get).',
  header_respondent: 'Name the respondent in the header as the case records it (case_get).',
  header_committee: 'Name the committee in the header as the case records it (case_get).',
  fact_mismatch:
    'Give the deciding appraiser’s figure (block_context_get lists the appraisal facts), or attribute the figure to the party who claims it («לטענת העוררים …»).',
  latin_quote_mark: 'Write the gershayim ״ or the geresh ׳ instead of the keyboard quote mark.',
  citation_not_found:
    'Add the ruling to the library (library_add with its number: then its parties, pinpoint and quotes are checked), or record it as a missing precedent (missing_precedent_create: then it is could_not_check); if the number is wrong, correct it.',
  citation_wrong_name: 'Correct the parties’ names to the source’s (the message names them), or the number.',
  citation_wrong_pinpoint: 'Correct the paragraph or page to one the source has.',
  citation_could_not_check:
    'Upload the source (library_add) or wait until its text is ready; a missing precedent stays could_not_check until then.',
  quote_altered: 'Quote the source’s words exactly (the diff shows what differs).',
  quote_not_found: 'Quote words the source has, or attribute the quote to its right source.',
  quote_could_not_check: 'Upload the quote’s source (library_add) or wait until its text is ready.',
  citation_negative_treatment:
    'Check the later document (provenance.document_id) and cite it, or say why the ruling still holds.',
};

export const fixFor = (code: string): string => FIXES[code] ?? 'See docs/review.md for the rule.';
