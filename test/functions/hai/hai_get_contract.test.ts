import { like } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { hai_get_contract } from '../../../functions/hai/hai_get_contract.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { kvEntries } from '../../../src/db/schema/kv_entries.ts';
import { leaseKvKey } from '../../../src/governance/leases.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import {
  abandonMission,
  criteria,
  deniedTo,
  forEachStack,
  LEASE_STACKS,
  lease,
  openMission,
  recontract,
} from './_hai.ts';

type Got = ToolData<typeof hai_get_contract>;

forEachStack('hai_get_contract', LEASE_STACKS, (env, stack) => {
  it('returns the contract of the lease, from the KV copy or, when it is gone, from Postgres', async () => {
    const e = env();
    const m = await openMission(e);
    const l = await lease(e, 'researcher', m.mission.id);
    const got = expectOk<Got>(await e.s.call('researcher', 'hai_get_contract', { lease_id: l.lease_id }));
    expect(got).toMatchObject({
      mission: { id: m.mission.id, state: 'active' },
      contract: {
        version: 1,
        criteria,
        in_scope: ['analysis', 'research'],
        out_of_scope: ['research:foreign-law', 'drafting'],
      },
      lease: { lease_id: l.lease_id, expires_at: l.expires_at },
    });
    await e.s.kv.delete(leaseKvKey(l.lease_id));
    expect(
      expectOk<Got>(await e.s.call('researcher', 'hai_get_contract', { lease_id: l.lease_id })).contract
        .version,
    ).toBe(1);
    // Read through: the copy is back.
    expect(await e.s.kv.get(leaseKvKey(l.lease_id))).not.toBeNull();
    if (stack.kv === 'postgres') {
      await e.s.db.db.delete(kvEntries).where(like(kvEntries.key, 'hai:lease:%'));
      expectOk(await e.s.call('researcher', 'hai_get_contract', { lease_id: l.lease_id }));
    }
  });

  it('lease_expired, lease_revoked, not_found (unknown or another agent’s lease), invalid_args', async () => {
    const e = env();
    const m = await openMission(e);
    const l = await lease(e, 'researcher', m.mission.id, { ttl_seconds: 120 });
    expect(errorCode(await e.s.call('analyst', 'hai_get_contract', { lease_id: l.lease_id }))).toBe(
      'not_found',
    );
    expect(
      errorCode(await e.s.call('researcher', 'hai_get_contract', { lease_id: crypto.randomUUID() })),
    ).toBe('not_found');
    expect(errorCode(await e.s.call('researcher', 'hai_get_contract', { lease_id: 'not-a-uuid' }))).toBe(
      'invalid_args',
    );
    const other = await lease(e, 'analyst', m.mission.id, { ttl_seconds: 3600 });
    e.clock.advance(121_000);
    expect(errorCode(await e.s.call('researcher', 'hai_get_contract', { lease_id: l.lease_id }))).toBe(
      'lease_expired',
    );
    await recontract(e, m.mission.id);
    expect(errorCode(await e.s.call('analyst', 'hai_get_contract', { lease_id: other.lease_id }))).toBe(
      'lease_revoked',
    );
  });

  if (stack.kv === 'upstash') {
    // Last in the suite: it stops the bridge. Postgres is the authority, the KV copy only a cache.
    it('still answers from Postgres when the key-value store is down, and still refuses a revoked lease', async () => {
      const e = env();
      const m = await openMission(e);
      const l = await lease(e, 'researcher', m.mission.id);
      await abandonMission(e, m.mission.id);
      const m2 = await openMission(e);
      const l2 = await lease(e, 'researcher', m2.mission.id);
      await e.s.bridge?.close();
      const got = expectOk<Got>(await e.s.call('researcher', 'hai_get_contract', { lease_id: l2.lease_id }));
      expect(got.mission.id).toBe(m2.mission.id);
      expect(errorCode(await e.s.call('researcher', 'hai_get_contract', { lease_id: l.lease_id }))).toBe(
        'lease_revoked',
      );
    });
  }
});

deniedTo('hai_get_contract', 'ceo', { lease_id: crypto.randomUUID() });
