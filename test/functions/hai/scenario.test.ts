// The whole governance flow through the official MCP client, on every stack where leases matter:
// bind → open → two sessions → third denied → contract → activities → proof → recontract revokes →
// old lease refused → new session on v2 → proof for every criterion → close completed.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { hai_check_activity } from '../../../functions/hai/hai_check_activity.ts';
import type { hai_close_mission } from '../../../functions/hai/hai_close_mission.ts';
import type { hai_get_contract } from '../../../functions/hai/hai_get_contract.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { haiEvidence, haiLeases } from '../../../src/db/schema/hai.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import {
  authorize,
  bindProject,
  closeMission,
  confirmCriteria,
  criteria,
  forEachStack,
  LEASE_STACKS,
  leaseOf,
  openMission,
  prove,
  recontract,
  uniq,
} from './_hai.ts';

forEachStack('hai scenario', LEASE_STACKS, (env) => {
  it('runs a mission from binding to a completed close', async () => {
    const e = env();
    const { s } = e;
    const project = await bindProject(s, 'ws-1');
    const onWs1 = { device_id: 'ws-1' };
    const opened = await openMission(e, project);
    const missionId = opened.mission.id;
    expect(opened.contract.version).toBe(1);

    const a = leaseOf(await authorize(e, 'analyst', missionId, onWs1));
    const r = leaseOf(await authorize(e, 'researcher', missionId, onWs1));
    expect(a.lease_id).not.toBe(r.lease_id);
    const third = await authorize(e, 'writer', missionId, onWs1);
    expect(errorCode(third)).toBe('parallel_session_denied');

    const c = expectOk<ToolData<typeof hai_get_contract>>(
      await s.call('analyst', 'hai_get_contract', { lease_id: a.lease_id }),
    );
    expect(c.contract.version).toBe(1);
    expect(c.contract.criteria).toEqual(criteria);

    expect(
      expectOk<ToolData<typeof hai_check_activity>>(
        await s.call('analyst', 'hai_check_activity', {
          lease_id: a.lease_id,
          activity: 'research:case-law',
        }),
      ).in_scope,
    ).toBe(true);
    const out = expectOk<ToolData<typeof hai_check_activity>>(
      await s.call('analyst', 'hai_check_activity', { lease_id: a.lease_id, activity: 'drafting:ruling' }),
    );
    expect(out).toMatchObject({ in_scope: false, rule: 'out_of_scope' });

    expectOk(
      await prove(e, 'analyst', a.lease_id, { checked: 'Each fact against the protocol page', ...onWs1 }),
    );

    const re = await recontract(e, missionId, { max_sessions: 3 });
    expect(re.contract.version).toBe(2);
    expect(re.revoked_leases.sort()).toEqual([a.lease_id, r.lease_id].sort());

    expect(errorCode(await s.call('analyst', 'hai_get_contract', { lease_id: a.lease_id }))).toBe(
      'lease_revoked',
    );
    expect(
      errorCode(
        await prove(e, 'analyst', a.lease_id, { criterion_id: 'law-verified', checked: 'late', ...onWs1 }),
      ),
    ).toBe('lease_revoked');
    expect(errorCode(await authorize(e, 'analyst', missionId, onWs1))).toBe('contract_version_mismatch');

    const a2 = leaseOf(await authorize(e, 'analyst', missionId, { contract_version: 2, ...onWs1 }));
    expect(a2.contract_version).toBe(2);
    // Evidence under v1 does not count for v2: closing now lists both criteria.
    const early = await closeMission(e, missionId, 'completed', onWs1);
    expect(errorCode(early)).toBe('review_required');
    for (const cr of criteria) {
      expectOk(
        await prove(e, 'analyst', a2.lease_id, {
          criterion_id: cr.id,
          checked: cr.verification,
          evidence: 'protocol p. 3',
          ...onWs1,
        }),
      );
    }
    await confirmCriteria(e, missionId);
    const closed = expectOk<ToolData<typeof hai_close_mission>>(
      await closeMission(e, missionId, 'completed', { ...onWs1, summary: uniq('done') }),
    );
    expect(closed.mission.state).toBe('completed');
    expect(closed.revoked_leases).toEqual([a2.lease_id]);
    expect(errorCode(await s.call('analyst', 'hai_get_contract', { lease_id: a2.lease_id }))).toBe(
      'lease_revoked',
    );
    const leases = await s.db.db.select().from(haiLeases).where(eq(haiLeases.missionId, missionId));
    expect(leases).toHaveLength(3);
    expect(leases.every((l) => l.revokedAt !== null)).toBe(true);
    const evidence = await s.db.db.select().from(haiEvidence).where(eq(haiEvidence.missionId, missionId));
    expect(evidence.map((x) => `${x.contractVersion}:${x.criterionId}`).sort()).toEqual([
      '1:facts-mapped',
      '2:facts-mapped',
      '2:law-verified',
    ]);
  });
});
