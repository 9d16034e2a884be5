// Missions: loading a mission and a version of its contract, the rule that only an active, unexpired
// mission admits work, and the mission as the tools return it.

import * as z from 'zod';
import { one, ToolError } from '../contract/errors.ts';
import { and, eq } from '../db/orm.ts';
import {
  type HaiContractRow,
  type HaiMissionRow,
  haiContracts,
  haiMissions,
  missionStates,
} from '../db/schema/hai.ts';
import type { Db } from '../db/types.ts';
import { type Holds, sentence, use, whoDoes } from './roles.ts';

export const missionIdInput = z.uuid().describe('The mission id (hai_status)');

/**
 * The scope a mission is unique in while active: its project, its case (`case:<id>`; a project id cannot hold
 * ":"), or '*' for a mission of neither. So one active mission per case, and cases' missions run side by side.
 */
export const missionScopeKey = (m: { projectId?: string | undefined; caseId?: string | undefined }) =>
  m.projectId ?? (m.caseId === undefined ? '*' : `case:${m.caseId}`);

/** A mission by id, or undefined; `lock` locks its row. */
export async function findMission(
  db: Db,
  id: string,
  lock?: 'update' | 'share',
): Promise<HaiMissionRow | undefined> {
  const q = db.select().from(haiMissions).where(eq(haiMissions.id, id));
  const rows = lock === undefined ? await q : await q.for(lock);
  return rows[0];
}

export async function loadMission(db: Db, id: string, lock?: 'update' | 'share'): Promise<HaiMissionRow> {
  const row = await findMission(db, id, lock);
  if (row === undefined) {
    throw new ToolError('not_found', `No mission with id ${id}`, {
      details: { mission_id: id },
      hint: 'Use hai_status to find the mission id.',
    });
  }
  return row;
}

/** A version of a mission's contract; every version up to the mission's current one exists. */
export async function loadContract(db: Db, missionId: string, version: number): Promise<HaiContractRow> {
  const rows = await db
    .select()
    .from(haiContracts)
    .where(and(eq(haiContracts.missionId, missionId), eq(haiContracts.version, version)));
  return one(rows, `contract v${version} of mission ${missionId}`);
}

/** Refuses a closed mission, or (given its contract and the time) an expired one: mission_not_active. */
export function requireActive(ctx: Holds, m: HaiMissionRow, contract?: HaiContractRow, now?: Date): void {
  if (m.state !== 'active') {
    throw new ToolError(
      'mission_not_active',
      `Mission "${m.name}" is ${m.state}; a closed mission is terminal`,
      {
        details: { mission_id: m.id, state: m.state },
        hint: sentence(use(ctx, 'hai_open_mission', 'open a new mission', ' if there is more work')),
      },
    );
  }
  if (contract !== undefined && now !== undefined && contract.expiresAt.getTime() <= now.getTime()) {
    const extend = ctx.holds('hai_recontract')
      ? 'ask the owner to extend it with hai_recontract'
      : `ask ${whoDoes('hai_recontract')} to have the owner extend it`;
    throw new ToolError(
      'mission_not_active',
      `Mission "${m.name}" expired at ${contract.expiresAt.toISOString()}`,
      {
        details: { mission_id: m.id, state: 'expired', expires_at: contract.expiresAt.toISOString() },
        hint: sentence(`${extend}, or ${use(ctx, 'hai_close_mission', 'close it')}`),
      },
    );
  }
}

/** The mission as the tools return it. */
export const missionOutput = z.object({
  id: z.uuid().describe('The mission id'),
  name: z.string().describe('Its short unique name'),
  project_id: z.string().nullable().describe('The project it works on (sessions then need a bound device)'),
  case_id: z
    .uuid()
    .nullable()
    .describe('The case it governs (with GOVERNANCE_ENFORCE on, changes to the case need a lease on it)'),
  title: z.string().describe('What the mission is, for people'),
  state: z.enum(missionStates).describe('active, then completed or abandoned (terminal)'),
  contract_version: z.int().min(1).describe('The current contract version'),
  lease_epoch: z
    .int()
    .min(1)
    .describe('Bumped by every recontract and close; leases of an earlier epoch are revoked'),
  opened_by: z.string().describe('The agent that opened it'),
  opened_at: z.iso.datetime().describe('When it was opened'),
  closed_by: z.string().nullable().describe('The agent that closed it'),
  closed_at: z.iso.datetime().nullable().describe('When it was closed'),
  close_reason: z.string().nullable().describe('The owner’s reason given with the close'),
});

export const missionView = (m: HaiMissionRow): z.input<typeof missionOutput> => ({
  id: m.id,
  name: m.name,
  project_id: m.projectId,
  case_id: m.caseId,
  title: m.title,
  state: m.state,
  contract_version: m.currentVersion,
  lease_epoch: m.leaseEpoch,
  opened_by: m.openedBy,
  opened_at: m.openedAt.toISOString(),
  closed_by: m.closedBy,
  closed_at: m.closedAt?.toISOString() ?? null,
  close_reason: m.closeReason,
});
