import { z } from 'zod';

/** A job kind as the queue names it (e.g. "document_extract"). */
export const jobKindInput = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_.:-]{0,99}$/, 'a job kind: lower-case letters, digits, _ . : -')
  .describe('A job kind, e.g. "document_extract"; omit for every kind');
