// The holdings a document is served with (library_get, internal_decision_get, and the drafting context later):
// only those the owner approved, in the approved wording, with the extracted text beside it and where it is.

import * as z from 'zod';
import { and, asc, eq, inArray } from '../db/orm.ts';
import { holdings } from '../db/schema/holdings.ts';
import type { Db } from '../db/types.ts';

/** Holdings served per document; a ruling has a handful. */
export const MAX_SERVED_HOLDINGS = 50;

export const approvedHoldingOutput = z.object({
  halacha_id: z.uuid(),
  text: z.string().describe('The holding as approved (the owner’s wording when edited)'),
  extracted_text: z.string().describe('As found in the document'),
  topic: z.string().nullable(),
  page: z.int(),
  start: z.int(),
  end: z.int(),
});
export type ApprovedHolding = z.output<typeof approvedHoldingOutput>;

export const approvedHoldingsOutput = z
  .array(approvedHoldingOutput)
  .max(MAX_SERVED_HOLDINGS)
  .describe('Its holdings as the owner approved them (pending or rejected candidates are never served)');

/** The approved holdings of each document, in reading order. */
export async function approvedHoldings(
  db: Db,
  documentIds: readonly string[],
): Promise<Map<string, ApprovedHolding[]>> {
  const out = new Map<string, ApprovedHolding[]>();
  if (documentIds.length === 0) return out;
  const rows = await db
    .select()
    .from(holdings)
    .where(and(inArray(holdings.documentId, [...documentIds]), eq(holdings.status, 'approved')))
    .orderBy(asc(holdings.documentId), asc(holdings.page), asc(holdings.start));
  for (const h of rows) {
    const list = out.get(h.documentId) ?? [];
    if (list.length >= MAX_SERVED_HOLDINGS) continue;
    list.push({
      halacha_id: h.id,
      text: h.approvedText ?? h.text,
      extracted_text: h.text,
      topic: h.topic,
      page: h.page,
      start: h.start,
      end: h.end,
    });
    out.set(h.documentId, list);
  }
  return out;
}
