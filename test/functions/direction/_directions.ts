// Shared by the direction and outcome tests: a case with an argument map (written as argument_aggregate
// stores one), and calls as the ceo.
import type { direction_approve } from '../../../functions/direction/direction_approve.ts';
import type { direction_propose } from '../../../functions/direction/direction_propose.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { argumentMaps, caseArguments } from '../../../src/db/schema/analysis.ts';
import type { Db } from '../../../src/db/types.ts';
import { seedCase } from '../../harness/documents.ts';
import { expectOk, type TestServer } from '../../harness/server.ts';

export type Proposed = ToolData<typeof direction_propose>;
export type Approved = ToolData<typeof direction_approve>;

/** A new case with one argument map version holding `n` arguments; returns the case and the argument ids. */
export async function caseWithArguments(db: Db, n = 2): Promise<{ caseId: string; argumentIds: string[] }> {
  const caseId = await seedCase(db, 'כהן נ׳ הוועדה המקומית');
  const mapId = crypto.randomUUID();
  await db
    .insert(argumentMaps)
    .values({ id: mapId, caseId, version: 1, contentHash: mapId, createdBy: 'analyst' });
  const argumentIds = Array.from({ length: n }, () => crypto.randomUUID());
  await db.insert(caseArguments).values(
    argumentIds.map((id, i) => ({
      id,
      mapId,
      position: i + 1,
      title: `טיעון ${i + 1}`,
      party: 'appellant' as const,
    })),
  );
  return { caseId, argumentIds };
}

let n = 0;
/** Proposes a distinct direction in the case as the ceo. */
export async function propose(
  s: TestServer,
  caseId: string,
  extra: Record<string, unknown> = {},
): Promise<Proposed['direction']> {
  n++;
  return expectOk<Proposed>(
    await s.call('ceo', 'direction_propose', {
      case_id: caseId,
      title: `כיוון ${n}`,
      rationale: `נימוק ${n}: התכנית אינה מתירה את הבקשה`,
      outcome: 'rejection',
      ...extra,
    }),
  ).direction;
}

/** direction_approve with the owner's acknowledgement (ack mode). */
export const approve = (s: TestServer, directionId: string, reason = 'היו״ר אישר') =>
  s.call('ceo', 'direction_approve', { direction_id: directionId, owner_ack: true, reason });
