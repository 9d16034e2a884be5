import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { hai_proof } from '../../../functions/hai/hai_proof.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { haiEvidence } from '../../../src/db/schema/hai.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import {
  DEVICE,
  deniedTo,
  forEachStack,
  LEASE_STACKS,
  lease,
  openMission,
  prove,
  recontract,
} from './_hai.ts';

forEachStack('hai_proof', LEASE_STACKS, (env) => {
  it('records evidence per criterion: what was checked, the result, by whom, where', async () => {
    const e = env();
    const m = await openMission(e);
    const l = await lease(e, 'qa', m.mission.id);
    const data = expectOk<ToolData<typeof hai_proof>>(
      await e.s.call('qa', 'hai_proof', {
        lease_id: l.lease_id,
        criterion_id: 'facts-mapped',
        checked: 'Each fact of the background against the protocol',
        result: 'fail',
        evidence: 'protocol p. 7: the date is 2019, not 2018',
        device_id: DEVICE,
      }),
    );
    expect(data).toMatchObject({
      created: true,
      proof: {
        criterion_id: 'facts-mapped',
        result: 'fail',
        recorded_by: 'qa',
        device_id: DEVICE,
        contract_version: 1,
      },
    });
    // A later pass is a second, distinct record.
    expectOk(await prove(e, 'qa', l.lease_id, { checked: 'Re-checked' }));
    const rows = await e.s.db.db.select().from(haiEvidence).where(eq(haiEvidence.missionId, m.mission.id));
    expect(rows.map((r) => r.result).sort()).toEqual(['fail', 'pass']);
  });

  it('not_found (criterion), invalid_args, device_mount_required, lease_expired, lease_revoked', async () => {
    const e = env();
    const m = await openMission(e);
    const l = await lease(e, 'qa', m.mission.id, { ttl_seconds: 60, harness_id: 'short' });
    const l2 = await lease(e, 'qa', m.mission.id, { ttl_seconds: 3600 });
    const proof = (args: Record<string, unknown>) => prove(e, 'qa', l.lease_id, args);
    expect(errorCode(await proof({ criterion_id: 'unknown' }))).toBe('not_found');
    expect(errorCode(await proof({ result: 'maybe' }))).toBe('invalid_args');
    expect(errorCode(await proof({ device_id: undefined }))).toBe('invalid_args');
    expect(errorCode(await proof({ device_id: 'phone' }))).toBe('device_mount_required');
    e.clock.advance(61_000);
    expect(errorCode(await proof({}))).toBe('lease_expired');
    await recontract(e, m.mission.id);
    expect(errorCode(await proof({ lease_id: l2.lease_id }))).toBe('lease_revoked');
    expect(await e.s.db.db.select().from(haiEvidence).where(eq(haiEvidence.missionId, m.mission.id))).toEqual(
      [],
    );
  });
});

deniedTo('hai_proof', 'ceo', {
  lease_id: crypto.randomUUID(),
  criterion_id: 'c',
  checked: 'c',
  result: 'pass',
});
