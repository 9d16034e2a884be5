// The argument family's reads: a version of a case's argument map with its arguments and their claims, and
// the claims of the case left out of it (neither rejected nor merged).

import * as z from 'zod';
import { and, asc, desc, eq, notInArray, sql } from '../db/orm.ts';
import {
  argumentClaims,
  argumentMaps,
  caseArguments,
  claimKinds,
  claimParties,
  claims,
} from '../db/schema/analysis.ts';
import type { Db, DbOrTx } from '../db/types.ts';
import { claimOutput, claimView, withArgumentClaims } from './views.ts';

export const MAX_ARGUMENTS = 50;
export const MAX_CLAIMS_PER_ARGUMENT = 200;
/** Unassigned claims shown; `unassigned_total` counts them all. */
export const MAX_UNASSIGNED = 200;

export type MapRow = typeof argumentMaps.$inferSelect;

export async function mapVersion(
  db: Db | DbOrTx,
  caseId: string,
  version?: number,
): Promise<MapRow | undefined> {
  const [row] = await db
    .select()
    .from(argumentMaps)
    .where(
      and(
        eq(argumentMaps.caseId, caseId),
        version === undefined ? undefined : eq(argumentMaps.version, version),
      ),
    )
    .orderBy(desc(argumentMaps.version))
    .limit(1);
  return row;
}

export const unassignedOutput = z.object({
  id: z.uuid(),
  party: z.enum(claimParties),
  kind: z.enum(claimKinds),
  excerpt: z.string().describe('The wording, else the original text, cut to 120 characters'),
});

/** The claims of a case not in the map's version (rejected and merged ones are out of every map). */
export async function unassignedClaims(db: Db | DbOrTx, caseId: string, mapId: string | null) {
  const where = and(
    eq(claims.caseId, caseId),
    notInArray(claims.status, ['rejected', 'merged']),
    mapId === null
      ? undefined
      : sql`not exists (select 1 from ${argumentClaims} ac where ac.map_id = ${mapId} and ac.claim_id = ${claims.id})`,
  );
  const [{ total = 0 } = {}] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(claims)
    .where(where);
  const rows = await db.select().from(claims).where(where).orderBy(asc(claims.seq)).limit(MAX_UNASSIGNED);
  return { rows, total };
}

export const excerpt = (row: { wording: string | null; text: string }) => {
  const t = (row.wording ?? row.text).replace(/\s+/g, ' ').trim();
  return t.length > 120 ? `${t.slice(0, 119)}…` : t;
};

export const argumentOutput = z.object({
  id: z.uuid(),
  title: z.string(),
  party: z.enum(claimParties),
  summary: z.string().nullable(),
  claims: z.array(claimOutput).max(MAX_CLAIMS_PER_ARGUMENT),
});

/** A version's arguments, in order, each with its claims (in the order the agent gave them). */
export async function mapArguments(db: Db | DbOrTx, mapId: string) {
  const args = await db
    .select()
    .from(caseArguments)
    .where(eq(caseArguments.mapId, mapId))
    .orderBy(asc(caseArguments.position));
  return (await withArgumentClaims(db, args)).map(({ arg, claims }) => ({
    id: arg.id,
    title: arg.title,
    party: arg.party,
    summary: arg.summary,
    claims: claims.map(claimView),
  }));
}
