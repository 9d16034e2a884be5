import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { hai_check_activity } from '../../../functions/hai/hai_check_activity.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { haiActivityChecks } from '../../../src/db/schema/hai.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { abandonMission, deniedTo, forEachStack, LEASE_STACKS, lease, openMission } from './_hai.ts';

forEachStack('hai_check_activity', LEASE_STACKS, (env) => {
  it('answers in/out of scope by the contract’s labels and records each check', async () => {
    const e = env();
    const m = await openMission(e);
    const l = await lease(e, 'analyst', m.mission.id);
    const check = async (activity: string) =>
      expectOk<ToolData<typeof hai_check_activity>>(
        await e.s.call('analyst', 'hai_check_activity', { lease_id: l.lease_id, activity }),
      );
    expect(await check('Analysis')).toMatchObject({
      in_scope: true,
      matched: 'analysis',
      rule: 'in_scope',
      activity: 'analysis',
    });
    expect(await check('research:case-law')).toMatchObject({ in_scope: true, matched: 'research' });
    expect(await check('research:foreign-law:germany')).toMatchObject({
      in_scope: false,
      matched: 'research:foreign-law',
      rule: 'out_of_scope',
    });
    expect(await check('drafting')).toMatchObject({ in_scope: false, rule: 'out_of_scope' });
    expect(await check('analysis2')).toMatchObject({ in_scope: false, matched: null, rule: 'not_listed' });
    const rows = await e.s.db.db
      .select()
      .from(haiActivityChecks)
      .where(eq(haiActivityChecks.leaseId, l.lease_id));
    expect(rows.map((r) => [r.activity, r.inScope, r.agent]).sort()).toEqual(
      [
        ['analysis', true, 'analyst'],
        ['analysis2', false, 'analyst'],
        ['drafting', false, 'analyst'],
        ['research:case-law', true, 'analyst'],
        ['research:foreign-law:germany', false, 'analyst'],
      ].sort(),
    );
  });

  it('lease_revoked, lease_expired, not_found, invalid_args', async () => {
    const e = env();
    const m = await openMission(e);
    const l = await lease(e, 'analyst', m.mission.id, { ttl_seconds: 60, harness_id: 'short' });
    const l2 = await lease(e, 'analyst', m.mission.id, { ttl_seconds: 3600 });
    expect(
      errorCode(await e.s.call('analyst', 'hai_check_activity', { lease_id: l.lease_id, activity: '' })),
    ).toBe('invalid_args');
    expect(
      errorCode(
        await e.s.call('analyst', 'hai_check_activity', { lease_id: crypto.randomUUID(), activity: 'a' }),
      ),
    ).toBe('not_found');
    e.clock.advance(61_000);
    expect(
      errorCode(
        await e.s.call('analyst', 'hai_check_activity', { lease_id: l.lease_id, activity: 'analysis' }),
      ),
    ).toBe('lease_expired');
    await abandonMission(e, m.mission.id);
    expect(
      errorCode(
        await e.s.call('analyst', 'hai_check_activity', { lease_id: l2.lease_id, activity: 'analysis' }),
      ),
    ).toBe('lease_revoked');
  });
});

deniedTo('hai_check_activity', 'ceo', { lease_id: crypto.randomUUID(), activity: 'a' });
