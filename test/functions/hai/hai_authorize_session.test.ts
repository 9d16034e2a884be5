import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { haiLeases } from '../../../src/db/schema/hai.ts';
import { leaseKvKey } from '../../../src/governance/leases.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import {
  abandonMission,
  authorize,
  DEVICE,
  deniedTo,
  forEachStack,
  LEASE_STACKS,
  type LeaseData,
  lease,
  openMission,
} from './_hai.ts';

forEachStack('hai_authorize_session', LEASE_STACKS, (env) => {
  it('issues a lease bound to mission, version, agent, device and harness; Postgres row and KV copy', async () => {
    const e = env();
    const m = await openMission(e);
    const before = e.clock.now().getTime();
    const data = expectOk<LeaseData>(
      await authorize(e, 'analyst', m.mission.id, { harness_id: 'claude-code-1', ttl_seconds: 900 }),
    );
    expect(data).toMatchObject({
      created: true,
      live_sessions: 1,
      max_sessions: 2,
      lease: { agent: 'analyst', epoch: 1, contract_version: 1 },
    });
    const expires = Date.parse(data.lease.expires_at);
    expect(expires - before).toBeGreaterThanOrEqual(900_000);
    const [row] = await e.s.db.db.select().from(haiLeases).where(eq(haiLeases.id, data.lease.lease_id));
    expect(row).toMatchObject({
      missionId: m.mission.id,
      deviceId: DEVICE,
      harnessId: 'claude-code-1',
      epoch: 1,
      revokedAt: null,
    });
    const copy = JSON.parse((await e.s.kv.get(leaseKvKey(data.lease.lease_id))) ?? 'null');
    expect(copy).toEqual({
      mission_id: m.mission.id,
      epoch: 1,
      agent: 'analyst',
      contract_version: 1,
      expires_at: data.lease.expires_at,
    });
  });

  it('never lasts past the contract; an expired lease frees its slot', async () => {
    const e = env();
    const m = await openMission(e, undefined, {
      expires_at: new Date(e.clock.now().getTime() + 120_000).toISOString(),
      max_sessions: 1,
    });
    const l = await lease(e, 'analyst', m.mission.id, { ttl_seconds: 60 });
    expect(errorCode(await authorize(e, 'writer', m.mission.id))).toBe('parallel_session_denied');
    e.clock.advance(61_000);
    const w = await lease(e, 'writer', m.mission.id, { ttl_seconds: 3600 });
    expect(w.lease_id).not.toBe(l.lease_id);
    expect(Date.parse(w.expires_at)).toBeLessThanOrEqual(Date.parse(m.contract.expires_at));
    // The same session asked again while it lives is the same lease; after it expired, a new one.
    expect((await lease(e, 'writer', m.mission.id)).lease_id).toBe(w.lease_id);
  });

  it('contract_version_mismatch, invalid_args, device_mount_required, parallel_session_denied, mission_not_active, not_found', async () => {
    const e = env();
    const m = await openMission(e, undefined, { max_sessions: 1 });
    const auth = (args: Record<string, unknown>, agent: 'analyst' | 'qa' = 'analyst') =>
      authorize(e, agent, m.mission.id, args);
    expect(errorCode(await auth({ contract_version: 2 }))).toBe('contract_version_mismatch');
    expect(errorCode(await auth({ device_id: undefined }))).toBe('invalid_args');
    expect(errorCode(await auth({ ttl_seconds: 5 }))).toBe('invalid_args');
    expect(errorCode(await auth({ device_id: 'tablet' }))).toBe('device_mount_required');
    expectOk(await auth({}));
    expect(errorCode(await auth({}, 'qa'))).toBe('parallel_session_denied');
    await abandonMission(e, m.mission.id);
    expect(errorCode(await auth({ harness_id: 'after-close' }))).toBe('mission_not_active');
    expect(errorCode(await auth({ mission_id: crypto.randomUUID() }))).toBe('not_found');
  });
});

// Every agent holds it (the ceo too, for its own changes to a case under enforcement): taken away here.
deniedTo('hai_authorize_session', 'ceo', { mission_id: crypto.randomUUID(), contract_version: 1 }, true);
