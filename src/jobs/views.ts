import * as z from 'zod';

/** A job kind as the queue names it (e.g. "document_extract"). */
export const jobKindInput = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_.:-]{0,99}$/, 'a job kind: lower-case letters, digits, _ . : -')
  .describe('A job kind, e.g. "document_extract"');

/** The report of one drain, as extraction_run returns it. */
export const drainReportOutput = z.object({
  claimed: z.int(),
  succeeded: z.int(),
  retried: z.int().describe('Failed; a retry is scheduled'),
  dead: z.int().describe('Failed for good; the error is kept'),
  recovered: z.int().describe('Jobs whose worker was lost, put back to run again'),
  stale: z.int().describe('Attempts that were no longer this drain’s to settle'),
  errors: z
    .array(
      z.object({
        id: z.uuid(),
        kind: z.string(),
        attempt: z.int(),
        error: z.string(),
        outcome: z.enum(['pending', 'dead', 'stale']),
      }),
    )
    .max(20),
  ms: z.number(),
  remaining: z.int().describe('Jobs still waiting when the drain ended'),
});

/** How many job kinds a status lists at most (the queue has a handful). */
export const MAX_KINDS = 100;
