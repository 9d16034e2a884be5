import { expect, it } from 'vitest';
import type { hai_health } from '../../../functions/hai/hai_health.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { expectOk } from '../../harness/server.ts';
import { deniedTo, forEachStack, LEASE_STACKS, lease, openMission } from './_hai.ts';

type Health = ToolData<typeof hai_health>;

forEachStack('hai_health', LEASE_STACKS, (env, stack) => {
  it('reports both stores up and counts projects, active missions and live leases', async () => {
    const e = env();
    const before = expectOk<Health>(await e.s.call('ceo', 'hai_health', {}));
    expect(before).toMatchObject({ healthy: true, database: 'up', kv: { status: 'up', kind: stack.kv } });
    const m = await openMission(e);
    await lease(e, 'analyst', m.mission.id);
    const p = m.mission.project_id as string;
    expectOk(await e.s.call('ceo', 'hai_set_focus', { project_id: p, lane: 'analysis', state: 'active' }));
    expectOk(await e.s.call('analyst', 'hai_park', { project_id: p, text: 'later' }));
    const after = expectOk<Health>(await e.s.call('ceo', 'hai_health', {}));
    expect(after.counts).toEqual({
      projects: (before.counts?.projects ?? 0) + 1,
      active_missions: (before.counts?.active_missions ?? 0) + 1,
      live_leases: (before.counts?.live_leases ?? 0) + 1,
      active_lanes: (before.counts?.active_lanes ?? 0) + 1,
      inbox_items: (before.counts?.inbox_items ?? 0) + 1,
    });
  });

  if (stack.kv === 'upstash') {
    it('says the key-value store is down when it is (and still answers)', async () => {
      const { s } = env();
      await s.bridge?.close();
      const h = expectOk<Health>(await s.call('ceo', 'hai_health', {}));
      expect(h).toMatchObject({ healthy: false, database: 'up', kv: { status: 'down', kind: 'upstash' } });
    });
  }
});

deniedTo('hai_health', 'analyst', {});
