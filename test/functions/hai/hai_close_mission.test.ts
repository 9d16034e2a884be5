import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { hai_close_mission } from '../../../functions/hai/hai_close_mission.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { haiMissions } from '../../../src/db/schema/hai.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import {
  closeMission,
  confirmCriteria,
  criteria,
  deniedTo,
  forEachStack,
  gate,
  LEASE_STACKS,
  lease,
  openMission,
  prove,
} from './_hai.ts';

type Closed = ToolData<typeof hai_close_mission>;

forEachStack('hai_close_mission', LEASE_STACKS, (env) => {
  it('completes a mission whose criteria all have passing evidence, revoking its leases', async () => {
    const e = env();
    const m = await openMission(e);
    const l = await lease(e, 'qa', m.mission.id);
    for (const c of criteria) {
      expectOk(await prove(e, 'qa', l.lease_id, { criterion_id: c.id, checked: c.verification }));
    }
    // The agents' evidence is their word: the owner confirms each free-text criterion in the console.
    expect(errorCode(await closeMission(e, m.mission.id, 'completed'))).toBe('review_required');
    await confirmCriteria(e, m.mission.id);
    const closed = expectOk<Closed>(await closeMission(e, m.mission.id, 'completed', { summary: 'done' }));
    expect(closed).toMatchObject({
      created: true,
      mission: { state: 'completed', closed_by: 'ceo' },
      revoked_leases: [l.lease_id],
    });
    const [row] = await e.s.db.db.select().from(haiMissions).where(eq(haiMissions.id, m.mission.id));
    expect(row).toMatchObject({ state: 'completed', closeSummary: 'done', leaseEpoch: 2 });
    expect(errorCode(await e.s.call('qa', 'hai_get_contract', { lease_id: l.lease_id }))).toBe(
      'lease_revoked',
    );
  });

  it('abandons with the owner’s ack and records the reason', async () => {
    const e = env();
    const m = await openMission(e);
    const closed = expectOk<Closed>(await closeMission(e, m.mission.id, 'abandoned', gate));
    expect(closed.mission).toMatchObject({ state: 'abandoned', close_reason: gate.reason });
  });

  it('review_required, owner_gate_required, invalid_args, device_mount_required, mission_not_active, not_found', async () => {
    const e = env();
    const m = await openMission(e);
    const close = (outcome: string, args: Record<string, unknown> = {}) =>
      closeMission(e, m.mission.id, outcome, args);
    expect(errorCode(await close('completed'))).toBe('review_required');
    expect(errorCode(await close('abandoned'))).toBe('owner_gate_required');
    expect(errorCode(await close('abandoned', { device_id: undefined, ...gate }))).toBe('invalid_args');
    expect(errorCode(await close('abandoned', { device_id: 'elsewhere', ...gate }))).toBe(
      'device_mount_required',
    );
    expect(errorCode(await close('finished', gate))).toBe('invalid_args');
    expectOk(await close('abandoned', gate));
    // Terminal: no other outcome afterwards.
    expect(errorCode(await close('completed'))).toBe('mission_not_active');
    expect(
      errorCode(await closeMission(e, crypto.randomUUID(), 'abandoned', { device_id: undefined, ...gate })),
    ).toBe('not_found');
  });
});

deniedTo('hai_close_mission', 'writer', { mission_id: crypto.randomUUID(), outcome: 'abandoned', ...gate });
