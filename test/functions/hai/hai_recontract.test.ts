import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { haiContracts, haiLeases } from '../../../src/db/schema/hai.ts';
import { leaseKvKey } from '../../../src/governance/leases.ts';
import { errorCode } from '../../harness/server.ts';
import {
  abandonMission,
  contract,
  deniedTo,
  forEachStack,
  gate,
  LEASE_STACKS,
  lease,
  movableClock,
  openMission,
  recontract,
} from './_hai.ts';

forEachStack('hai_recontract', LEASE_STACKS, (env) => {
  it('writes v2, bumps the epoch, revokes every lease in Postgres and drops the key-value copies', async () => {
    const e = env();
    const m = await openMission(e, undefined, { max_sessions: 3 });
    const leases = [await lease(e, 'analyst', m.mission.id), await lease(e, 'writer', m.mission.id)];
    for (const l of leases) expect(await e.s.kv.get(leaseKvKey(l.lease_id))).not.toBeNull();
    const r = await recontract(e, m.mission.id, {
      goal: 'Analysis and a first draft',
      in_scope: ['analysis', 'drafting:background'],
    });
    expect(r).toMatchObject({
      created: true,
      mission: { contract_version: 2, lease_epoch: 2 },
      contract: { version: 2, goal: 'Analysis and a first draft', break_glass: false },
    });
    expect(r.revoked_leases.sort()).toEqual(leases.map((l) => l.lease_id).sort());
    const rows = await e.s.db.db.select().from(haiLeases).where(eq(haiLeases.missionId, m.mission.id));
    expect(rows.every((x) => x.revokedAt !== null && x.revokeReason === 'recontract to v2')).toBe(true);
    for (const l of leases) expect(await e.s.kv.get(leaseKvKey(l.lease_id))).toBeNull();
    const versions = await e.s.db.db
      .select()
      .from(haiContracts)
      .where(eq(haiContracts.missionId, m.mission.id));
    expect(versions.map((v) => [v.version, v.reason]).sort()).toEqual([
      [1, null],
      [2, gate.reason],
    ]);
  });

  it('owner_gate_required, invalid_args (break_glass without marker), contract_version_mismatch, mission_not_active, not_found', async () => {
    const e = env();
    const m = await openMission(e);
    const terms = { mission_id: m.mission.id, expected_version: 1, ...contract(e.clock) };
    expect(errorCode(await e.s.call('ceo', 'hai_recontract', terms))).toBe('owner_gate_required');
    expect(errorCode(await e.s.call('ceo', 'hai_recontract', { ...terms, break_glass: true }))).toBe(
      'invalid_args',
    );
    expect(
      errorCode(await e.s.call('ceo', 'hai_recontract', { ...terms, expected_version: 3, ...gate })),
    ).toBe('contract_version_mismatch');
    expect(errorCode(await e.s.call('ceo', 'hai_recontract', { ...terms, criteria: [], ...gate }))).toBe(
      'invalid_args',
    );
    await abandonMission(e, m.mission.id);
    expect(errorCode(await e.s.call('ceo', 'hai_recontract', { ...terms, goal: 'later', ...gate }))).toBe(
      'mission_not_active',
    );
    expect(
      errorCode(
        await e.s.call('ceo', 'hai_recontract', { ...terms, mission_id: crypto.randomUUID(), ...gate }),
      ),
    ).toBe('not_found');
  });
});

deniedTo('hai_recontract', 'researcher', {
  mission_id: crypto.randomUUID(),
  expected_version: 1,
  ...contract(movableClock()),
  ...gate,
});
