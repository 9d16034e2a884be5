import { expect, it } from 'vitest';
import type { hai_status } from '../../../functions/hai/hai_status.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import {
  abandonMission,
  bindProject,
  DB_STACKS,
  deniedTo,
  forEachStack,
  lease,
  openMission,
  prove,
} from './_hai.ts';

type Status = ToolData<typeof hai_status>;

forEachStack('hai_status', DB_STACKS, (env) => {
  it('summarises a project, its lanes, inbox, proposal, checkpoint and active mission', async () => {
    const e = env();
    const m = await openMission(e);
    const p = m.mission.project_id as string;
    expectOk(await e.s.call('ceo', 'hai_set_focus', { project_id: p, lane: 'analysis', state: 'active' }));
    expectOk(await e.s.call('ceo', 'hai_set_focus', { project_id: p, lane: 'style', state: 'parked' }));
    expectOk(await e.s.call('analyst', 'hai_park', { project_id: p, text: 'later' }));
    expectOk(await e.s.call('analyst', 'hai_propose_next_step', { project_id: p, content: 'next' }));
    expectOk(await e.s.call('analyst', 'hai_checkpoint', { project_id: p, label: 'cp1', summary: 's' }));
    const l = await lease(e, 'analyst', m.mission.id);
    expectOk(await prove(e, 'analyst', l.lease_id, { result: 'fail' }));
    const st = expectOk<Status>(await e.s.call('qa', 'hai_status', { project_id: p }));
    expect(st.health).toMatchObject({ database: 'up', kv: { status: 'up' } });
    expect(st.projects).toHaveLength(1);
    expect(st.projects[0]).toMatchObject({
      id: p,
      mounts: [{ device_id: 'dev-1' }],
      lanes: { active: ['analysis'], parked: ['style'] },
      inbox_items: 1,
      pending_proposal_version: 1,
      last_checkpoint: { label: 'cp1' },
    });
    expect(st.active_missions).toHaveLength(1);
    expect(st.active_missions[0]).toMatchObject({
      id: m.mission.id,
      contract_version: 1,
      live_sessions: [{ agent: 'analyst' }],
    });
    expect(st.active_missions[0]?.criteria.map((c) => [c.id, c.evidence])).toEqual([
      ['facts-mapped', 'fail'],
      ['law-verified', 'none'],
    ]);
    // A closed mission is no longer listed.
    await abandonMission(e, m.mission.id);
    expect(expectOk<Status>(await e.s.call('qa', 'hai_status', { project_id: p })).active_missions).toEqual(
      [],
    );
  });

  it('without project_id lists every project', async () => {
    const e = env();
    const a = await bindProject(e.s);
    const b = await bindProject(e.s);
    const ids = expectOk<Status>(await e.s.call('ceo', 'hai_status', {})).projects.map((x) => x.id);
    expect(ids).toEqual(expect.arrayContaining([a, b]));
  });

  it('missing_project for an unknown project, invalid_args for a malformed id', async () => {
    const { s } = env();
    expect(errorCode(await s.call('ceo', 'hai_status', { project_id: 'no-such-project' }))).toBe(
      'missing_project',
    );
    expect(errorCode(await s.call('ceo', 'hai_status', { project_id: '../x' }))).toBe('invalid_args');
  });
});

deniedTo('hai_status', 'qa', {}, true);
