// Shared by the claim tool tests: a case whose appeal's claims are extracted, and calls as the analyst.
import type { claim_list } from '../../../functions/claim/claim_list.ts';
import type { claim_record } from '../../../functions/claim/claim_record.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import type { Envelope } from '../../../src/contract/envelope.ts';
import { type SeededCase, seedCaseFile } from '../../harness/analysis.ts';
import { expectOk, type TestServer } from '../../harness/server.ts';

export type Claims = ToolData<typeof claim_list>;
export type Claim = Claims['items'][number];
export type Recorded = ToolData<typeof claim_record>;

/** A case file's appeal (or the named documents) with its claims extracted; returns the case and its claims. */
export async function caseWithClaims(
  s: TestServer,
  names: Parameters<typeof seedCaseFile>[1] = { names: ['appeal'] },
): Promise<SeededCase & { claims: Claim[] }> {
  const seeded = await seedCaseFile(s.db.db, names);
  expectOk(await s.call('analyst', 'claim_extract', { case_id: seeded.caseId, wait_ms: 10_000 }));
  const claims = expectOk<Claims>(
    await s.call('analyst', 'claim_list', { case_id: seeded.caseId, limit: 200 }),
  ).items;
  return { ...seeded, claims };
}

export const recordAs = (s: TestServer, args: Record<string, unknown>): Promise<Envelope> =>
  s.call('analyst', 'claim_record', args);

/** The n-th claim, or a failure naming it. */
export function nth(claims: readonly Claim[], n: number): Claim {
  const c = claims[n];
  if (c === undefined) throw new Error(`no claim #${n}`);
  return c;
}
