import { expect, it } from 'vitest';
import { errorCode, expectOk } from '../../harness/server.ts';
import { bindProject, DB_STACKS, deniedTo, forEachStack, lease, openMission } from './_hai.ts';

interface Recover {
  advice: { kind: string; details: Record<string, unknown>; action: string }[];
  last_checkpoint: { label: string } | null;
}

forEachStack('hai_recover', DB_STACKS, (env) => {
  it('is empty when nothing needs attention, and returns the last checkpoint', async () => {
    const { s } = env();
    const p = await bindProject(s);
    expectOk(await s.call('analyst', 'hai_checkpoint', { project_id: p, label: 'start', summary: 's' }));
    const r = await s.call('analyst', 'hai_recover', { project_id: p });
    expect(r.status).toBe('empty');
    expect(expectOk<Recover>(r).last_checkpoint).toMatchObject({ label: 'start' });
  });

  it('advises on a pending proposal, criteria without evidence, expiring, stale leases and an expired mission', async () => {
    const e = env();
    const m = await openMission(e, undefined, {
      expires_at: new Date(e.clock.now().getTime() + 2 * 3_600_000).toISOString(),
    });
    const p = m.mission.project_id as string;
    expectOk(await e.s.call('writer', 'hai_propose_next_step', { project_id: p, content: 'next' }));
    const short = await lease(e, 'analyst', m.mission.id, { ttl_seconds: 300, harness_id: 'short' });
    const long = await lease(e, 'writer', m.mission.id, { ttl_seconds: 3600 });
    const kinds = async () =>
      expectOk<Recover>(await e.s.call('ceo', 'hai_recover', { project_id: p }))
        .advice.map((a) => a.kind)
        .sort();
    expect(await kinds()).toEqual(['criteria_without_evidence', 'lease_expiring', 'proposal_pending']);
    e.clock.advance(301_000);
    const advice = expectOk<Recover>(await e.s.call('ceo', 'hai_recover', { project_id: p })).advice;
    expect(advice.find((a) => a.kind === 'lease_stale')?.details).toMatchObject({ lease_id: short.lease_id });
    e.clock.advance(2 * 3_600_000);
    const late = (await kinds()).filter((k) => k === 'mission_expired' || k === 'lease_stale');
    expect(late).toEqual(['lease_stale', 'lease_stale', 'mission_expired']);
    expect(long.lease_id).not.toBe(short.lease_id);
  });

  it('missing_project for an unknown project', async () => {
    expect(errorCode(await env().s.call('ceo', 'hai_recover', { project_id: 'nope' }))).toBe(
      'missing_project',
    );
  });
});

deniedTo('hai_recover', 'writer', {}, true);
