// Shared fixtures of the approval-mode suites: a server with OWNER_GATE=approval and a movable clock, a gated
// fixture tool that two agents hold (so one agent can try the other's approval), and the rows to check.
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe } from 'vitest';
import * as z from 'zod';
import { tools } from '../../entry/registries.ts';
import { defineTool } from '../../src/contract/define.ts';
import type { Envelope } from '../../src/contract/envelope.ts';
import { auditLog } from '../../src/db/schema/audit_log.ts';
import { ownerApprovals } from '../../src/db/schema/owners.ts';
import { type OwnerSession, signInOwner } from '../harness/owner.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { describeWithService } from '../harness/services.ts';

/** How many times the fixture's effect ran, per note: an approval must let it run exactly once. */
export const effects = new Map<string, number>();

/** A gated write two agents hold; conditional like hai_close_mission when `gated` is false. */
export const fixture_note_write = defineTool({
  name: 'fixture_note_write',
  description: 'Approval fixture: records a note once (owner-gated unless gated is false), counting effects.',
  input: {
    note: z.string().min(1).max(200).describe('The note'),
    level: z.number().int().min(0).max(9).optional().describe('A number argument'),
    gated: z.boolean().optional().describe('false skips the gate'),
  },
  output: z.object({
    note: z.string(),
    runs: z.int(),
    reason: z.string().nullable(),
    owner: z.string().nullable(),
  }),
  mutates: 'write',
  ownerGate: (input) => input.gated !== false,
  idempotencyKey: { describe: 'note', of: (input) => input.note },
  async run({ input, gate }) {
    const runs = (effects.get(input.note) ?? 0) + 1;
    effects.set(input.note, runs);
    if (input.note.startsWith('fail')) throw new Error('fixture failure after the gate');
    return { note: input.note, runs, reason: gate?.reason ?? null, owner: gate?.owner ?? null };
  },
});

export interface ApprovalEnv {
  s: TestServer;
  owner: OwnerSession;
  clock: { now(): Date; advance(ms: number): void };
}

const STACKS = [
  { db: 'pglite', kv: 'postgres' },
  { db: 'postgres', kv: 'postgres' },
] as const;

/** One suite per database, each on a server in approval mode with a signed-in owner. */
export function forEachApprovalStack(
  title: string,
  fn: (env: () => ApprovalEnv) => void,
  stacks: readonly { db: 'pglite' | 'postgres'; kv: 'postgres' | 'upstash' }[] = STACKS,
): void {
  for (const stack of stacks) {
    const body = () => {
      let env: ApprovalEnv | undefined;
      beforeAll(async () => {
        let offset = 0;
        const clock = {
          now: () => new Date(Date.now() + offset),
          advance: (ms: number) => {
            offset += ms;
          },
        };
        const s = await startTestServer({
          ...stack,
          now: clock.now,
          env: { OWNER_GATE: 'approval' },
          tools: [...tools, fixture_note_write],
          grants: { ceo: ['fixture_note_write'], analyst: ['fixture_note_write'] },
        });
        env = { s, clock, owner: await signInOwner(s, 'dana', clock.now()) };
      });
      afterAll(async () => env?.s.close());
      fn(() => {
        if (env === undefined) throw new Error('the approval server is not up');
        return env;
      });
    };
    const suite = `${title} [${stack.db}${stack.kv === 'upstash' ? '+upstash' : ''}]`;
    if (stack.db === 'pglite') describe(suite, body);
    else describeWithService(stack.kv === 'upstash' ? 'redis' : 'postgres', suite, body);
  }
}

let n = 0;
/** A note no other test uses. */
export const uniqueNote = (what: string) => `${what}-${++n}-${crypto.randomUUID().slice(0, 8)}`;

/** The approval request a refusal names. */
export function approvalIdOf(envelope: Envelope): string {
  if (envelope.ok || envelope.error.code !== 'owner_gate_required') {
    throw new Error(`expected owner_gate_required, got ${JSON.stringify(envelope)}`);
  }
  const id = envelope.error.details?.approval_id;
  if (typeof id !== 'string') throw new Error(`no approval_id in ${JSON.stringify(envelope.error)}`);
  return id;
}

export const approvalRow = async (s: TestServer, id: string) =>
  (await s.db.db.select().from(ownerApprovals).where(eq(ownerApprovals.id, id)))[0];

export const auditFor = (s: TestServer, approvalId: string) =>
  s.db.db.select().from(auditLog).where(eq(auditLog.approvalId, approvalId)).orderBy(asc(auditLog.id));
