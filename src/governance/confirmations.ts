// The owner's word on free-text criteria: a criterion the server cannot check (no `check`) counts for closing
// a mission only once the owner confirmed it (hai_confirm_criterion, from the console's missions page). An
// agent's hai_proof for it is evidence the owner reads, never the confirmation itself.
import * as z from 'zod';
import { and, eq } from '../db/orm.ts';
import { haiConfirmations } from '../db/schema/hai.ts';
import type { DbOrTx } from '../db/types.ts';

export type ConfirmationRow = typeof haiConfirmations.$inferSelect;

/** The owner's confirmations under one contract version of a mission. */
export const confirmationsOf = (db: DbOrTx, missionId: string, version: number) =>
  db
    .select()
    .from(haiConfirmations)
    .where(and(eq(haiConfirmations.missionId, missionId), eq(haiConfirmations.contractVersion, version)));

export const confirmationOutput = z.object({
  mission_id: z.uuid().describe('The mission'),
  contract_version: z.int().min(1).describe('The contract version it counts for (a recontract asks again)'),
  criterion_id: z.string().describe('The free-text criterion confirmed'),
  confirmed_by: z.string().describe('The owner principal who confirmed it'),
  confirmed_at: z.iso.datetime().describe('When'),
  reason: z.string().describe('What the owner saw, in their words'),
});

export const confirmationView = (r: ConfirmationRow): z.input<typeof confirmationOutput> => ({
  mission_id: r.missionId,
  contract_version: r.contractVersion,
  criterion_id: r.criterionId,
  confirmed_by: r.confirmedBy,
  confirmed_at: r.confirmedAt.toISOString(),
  reason: r.reason,
});
