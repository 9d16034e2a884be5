// Claims as the claim and argument tools return them: the candidate or recorded claim with its status, the
// agent's decision beside it, and where it is written (provenance).

import * as z from 'zod';
import { ToolError } from '../contract/errors.ts';
import { and, asc, eq, inArray } from '../db/orm.ts';
import { argumentClaims, claimKinds, claimParties, claimStatuses, claims } from '../db/schema/analysis.ts';
import { cases } from '../db/schema/cases.ts';
import type { Db, DbOrTx } from '../db/types.ts';
import { provenanceOf, provenanceOutput } from '../extractors/provenance.ts';

export const partyInput = z.enum(claimParties);

export const claimOutput = z.object({
  id: z.uuid(),
  party: z.enum(claimParties),
  kind: z.enum(claimKinds).describe('claim, or relief (a remedy asked for)'),
  status: z.enum(claimStatuses).describe('candidate (found by rule), confirmed, rejected or merged'),
  label: z.string().nullable().describe('The paragraph number as written'),
  wording: z.string().nullable().describe('The agent’s wording, beside the original text'),
  merged_into: z.uuid().nullable(),
  decision: z
    .object({ by: z.string(), reason: z.string().nullable(), at: z.iso.datetime() })
    .nullable()
    .describe('The last decision on it: the agent, the reason, when'),
  source: provenanceOutput.describe(
    'Where it is written (extractor_version claim_record: added by an agent)',
  ),
});

export type ClaimView = z.output<typeof claimOutput>;
export type ClaimRow = typeof claims.$inferSelect;

export const claimView = (row: ClaimRow): ClaimView => ({
  id: row.id,
  party: row.party,
  kind: row.kind,
  status: row.status,
  label: row.label,
  wording: row.wording,
  merged_into: row.mergedInto,
  decision:
    row.decidedBy === null || row.decidedAt === null
      ? null
      : { by: row.decidedBy, reason: row.reason, at: row.decidedAt.toISOString() },
  source: provenanceOf(row),
});

const missing = (ids: readonly string[], caseId: string) =>
  new ToolError('not_found', `No claim ${ids.join(', ')} in this case`, {
    details: { case_id: caseId, claim_ids: ids },
    hint: 'List the case’s claims with claim_list; a claim belongs to one case.',
  });

/**
 * The claims of a live case with these ids (C7: a claim of another or a deleted case is not found), in the
 * order asked. `lock` takes row locks for a change.
 */
export async function loadCaseClaims(
  db: Db | DbOrTx,
  caseId: string,
  ids: readonly string[],
  lock = false,
): Promise<ClaimRow[]> {
  if (ids.length === 0) return [];
  const query = db
    .select({ claim: claims })
    .from(claims)
    .innerJoin(cases, eq(cases.id, claims.caseId))
    .where(and(eq(claims.caseId, caseId), inArray(claims.id, [...ids])));
  // Locked in id order (LockRows runs above the sort), so two changes on the same claims never deadlock.
  const rows = (lock ? await query.orderBy(asc(claims.id)).for('update', { of: claims }) : await query).map(
    (r) => r.claim,
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const absent = [...new Set(ids)].filter((id) => !byId.has(id));
  if (absent.length > 0) throw missing(absent, caseId);
  return ids.map((id) => byId.get(id) as ClaimRow);
}

/** Arguments in the order given, each with its claims in the order the agent gave them (one query for all). */
export async function withArgumentClaims<A extends { id: string }>(db: Db | DbOrTx, args: readonly A[]) {
  if (args.length === 0) return [];
  const links = await db
    .select({ argumentId: argumentClaims.argumentId, claim: claims })
    .from(argumentClaims)
    .innerJoin(claims, eq(claims.id, argumentClaims.claimId))
    .where(
      inArray(
        argumentClaims.argumentId,
        args.map((a) => a.id),
      ),
    )
    .orderBy(asc(argumentClaims.position));
  return args.map((arg) => ({
    arg,
    claims: links.filter((l) => l.argumentId === arg.id).map((l) => l.claim),
  }));
}
