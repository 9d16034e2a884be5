// hai_revoke_session: the owner ends one session from the console (called here through the kernel as the
// owner principal, as the console does). The lease stops working at once, on reads that use the key-value
// copy and on writes; the mission and its other sessions go on.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { hai_revoke_session } from '../../../functions/hai/hai_revoke_session.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { haiLeases } from '../../../src/db/schema/hai.ts';
import { callAsOwner } from '../../harness/owner.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { forEachStack, LEASE_STACKS, lease, openMission } from './_hai.ts';

type Revoked = ToolData<typeof hai_revoke_session>;

forEachStack('hai_revoke_session', LEASE_STACKS, (env) => {
  const revoke = (lease_id: string, reason = 'הסוכן חרג מהתחום') =>
    callAsOwner(env().s, 'noa', 'hai_revoke_session', { lease_id, reason }, { now: env().clock.now });
  const contractOf = (agent: 'analyst' | 'researcher', lease_id: string) =>
    env().s.call(agent, 'hai_get_contract', { lease_id });

  it('ends one session at once (reads and writes); the other session and the mission go on', async () => {
    const e = env();
    const m = await openMission(e);
    const one = await lease(e, 'analyst', m.mission.id);
    const other = await lease(e, 'researcher', m.mission.id);
    // The read puts the lease's key-value copy in place: the revocation must not be hidden behind it.
    expectOk(await contractOf('analyst', one.lease_id));
    const data = expectOk<Revoked>(await revoke(one.lease_id));
    expect(data).toMatchObject({
      lease_id: one.lease_id,
      mission_id: m.mission.id,
      agent: 'analyst',
      created: true,
    });
    expect(errorCode(await contractOf('analyst', one.lease_id))).toBe('lease_revoked');
    const proof = await e.s.call('analyst', 'hai_proof', {
      lease_id: one.lease_id,
      criterion_id: 'facts-mapped',
      checked: 'after the revocation',
      result: 'pass',
    });
    expect(errorCode(proof)).toBe('lease_revoked');
    expectOk(await contractOf('researcher', other.lease_id));
    const [row] = await e.s.db.db.select().from(haiLeases).where(eq(haiLeases.id, one.lease_id));
    expect(row?.revokeReason).toBe('owner:noa: הסוכן חרג מהתחום');
    expect(row?.revokedAt?.toISOString()).toBe(data.revoked_at);
  });

  it('a repeat replays the first revocation; once its stored result is gone, it reports created: false', async () => {
    const e = env();
    const m = await openMission(e);
    const l = await lease(e, 'analyst', m.mission.id);
    const first = expectOk<Revoked>(await revoke(l.lease_id));
    const again = await revoke(l.lease_id);
    expect(again).toMatchObject({ ok: true, replayed: true, data: first });
    // Another owner's revocation of the same lease is another call: the row says it was already revoked.
    const other = await callAsOwner(e.s, 'avi', 'hai_revoke_session', {
      lease_id: l.lease_id,
      reason: 'גם אני',
    });
    expect(expectOk<Revoked>(other)).toEqual({ ...first, created: false });
  });

  it('refuses an unknown lease (not_found) and a revocation without a reason (invalid_args)', async () => {
    expect(errorCode(await revoke(crypto.randomUUID()))).toBe('not_found');
    const e = env();
    const m = await openMission(e);
    const l = await lease(e, 'analyst', m.mission.id);
    expect(errorCode(await revoke(l.lease_id, ' '))).toBe('invalid_args');
    expectOk(await contractOf('analyst', l.lease_id));
  });

  it('no agent holds it: tool_not_granted, the lease untouched', async () => {
    const e = env();
    const m = await openMission(e);
    const l = await lease(e, 'analyst', m.mission.id);
    for (const agent of ['ceo', 'analyst'] as const) {
      const refused = await e.s.call(agent, 'hai_revoke_session', { lease_id: l.lease_id, reason: 'x' });
      expect(errorCode(refused)).toBe('tool_not_granted');
    }
    expectOk(await contractOf('analyst', l.lease_id));
  });

  it('twenty concurrent revocations revoke once', async () => {
    const e = env();
    const m = await openMission(e);
    const l = await lease(e, 'analyst', m.mission.id);
    const all = await Promise.all(Array.from({ length: 20 }, () => revoke(l.lease_id)));
    // Each other call saw the first in flight (in_progress) or replays its result.
    const created = all.filter((r) => r.ok && !r.replayed && (r.data as Revoked).created);
    expect(created).toHaveLength(1);
    for (const r of all) if (!r.ok) expect(errorCode(r)).toBe('in_progress');
  });
});
