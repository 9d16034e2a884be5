// One test per error code the hai tools produce: the smallest call that yields it, with its details and
// recovery hint, and nothing written by the refused call.
import { expect, it } from 'vitest';
import type { Envelope } from '../../../src/contract/envelope.ts';
import type { errorCatalogue } from '../../../src/contract/errors.ts';
import { expectOk } from '../../harness/server.ts';
import {
  abandonMission,
  authorize,
  bindProject,
  contract,
  criteria,
  DEVICE,
  forEachStack,
  gate,
  holdMissionRow,
  LEASE_STACKS,
  lease,
  missionArgs,
  openMission,
  prove,
  recontract,
  uniq,
} from './_hai.ts';

/** The error of an envelope, failing when it is a success; checks the code, and that a hint is given. */
function refused(env: Envelope, code: keyof typeof errorCatalogue) {
  if (env.ok) throw new Error(`expected ${code}, got success ${JSON.stringify(env.data)}`);
  expect(env.error.code).toBe(code);
  expect(env.error.hint?.length ?? 0).toBeGreaterThan(0);
  return env.error;
}

forEachStack('hai error codes', LEASE_STACKS, (env, stack) => {
  it('path_outside_root: an artifact name outside the project root', async () => {
    const { s } = env();
    const p = await bindProject(s);
    const err = refused(
      await s.call('analyst', 'hai_read_artifacts', { project_id: p, names: ['../../etc/passwd'] }),
      'path_outside_root',
    );
    expect(err.details).toMatchObject({ name: '../../etc/passwd', reason: 'contains ".."' });
  });

  it('missing_project: an unknown project', async () => {
    const { s } = env();
    const unknown = uniq('nope');
    for (const [agent, tool, args] of [
      ['analyst', 'hai_read_artifacts', { project_id: unknown }],
      ['analyst', 'hai_get_next_step', { project_id: unknown }],
      ['analyst', 'hai_park', { project_id: unknown, text: 't' }],
      ['ceo', 'hai_set_focus', { project_id: unknown, lane: 'a', state: 'active' }],
      ['analyst', 'hai_propose_next_step', { project_id: unknown, content: 'c' }],
      ['ceo', 'hai_accept_next_step', { project_id: unknown, proposal_version: 1, ...gate }],
      ['analyst', 'hai_checkpoint', { project_id: unknown, label: 'l', summary: 's' }],
      ['ceo', 'hai_status', { project_id: unknown }],
      ['ceo', 'hai_recover', { project_id: unknown }],
      ['ceo', 'hai_open_mission', missionArgs(env().clock, unknown)],
    ] as const) {
      const err = refused(await s.call(agent, tool, args), 'missing_project');
      expect(err.details, tool).toEqual({ project_id: unknown });
    }
  });

  it('max_active_lanes: a third active lane', async () => {
    const { s } = env();
    const p = await bindProject(s);
    for (const lane of ['a', 'b'])
      expectOk(await s.call('ceo', 'hai_set_focus', { project_id: p, lane, state: 'active' }));
    refused(
      await s.call('ceo', 'hai_set_focus', { project_id: p, lane: 'c', state: 'active' }),
      'max_active_lanes',
    );
  });

  it('owner_gate_required: a gated tool without owner_ack and reason', async () => {
    const { s } = env();
    const err = refused(
      await s.call('ceo', 'hai_bind_project', { project_id: uniq('p'), device_id: 'd', mount_path: '/m' }),
      'owner_gate_required',
    );
    expect(err.details).toEqual({ missing: ['owner_ack: true', 'reason'] });
  });

  it('no_proposal: accepting when nothing is proposed', async () => {
    const { s } = env();
    const p = await bindProject(s);
    refused(
      await s.call('ceo', 'hai_accept_next_step', { project_id: p, proposal_version: 1, ...gate }),
      'no_proposal',
    );
  });

  it('invalid_args: a contract without criteria, an unknown argument', async () => {
    const e = env();
    const err = refused(
      await e.s.call('ceo', 'hai_open_mission', missionArgs(e.clock, null, { criteria: [] })),
      'invalid_args',
    );
    expect(JSON.stringify(err.details)).toContain('criteria');
    refused(await e.s.call('ceo', 'hai_status', { projekt_id: 'x' }), 'invalid_args');
  });

  it('active_mission_exists: a second active mission on a project', async () => {
    const e = env();
    const m = await openMission(e);
    const err = refused(
      await e.s.call('ceo', 'hai_open_mission', missionArgs(e.clock, m.mission.project_id)),
      'active_mission_exists',
    );
    expect(err.details).toMatchObject({ active_mission_id: m.mission.id });
  });

  it('mission_not_active: authorizing on a closed mission', async () => {
    const e = env();
    const m = await openMission(e);
    await abandonMission(e, m.mission.id);
    const err = refused(await authorize(e, 'analyst', m.mission.id), 'mission_not_active');
    expect(err.details).toMatchObject({ state: 'abandoned' });
  });

  it('contract_version_mismatch: a stale contract version', async () => {
    const e = env();
    const m = await openMission(e);
    await recontract(e, m.mission.id);
    const err = refused(await authorize(e, 'analyst', m.mission.id), 'contract_version_mismatch');
    expect(err.details).toMatchObject({ current_version: 2, given_version: 1 });
    // A recontract that names a version the mission is not at.
    const stale = refused(
      await e.s.call('ceo', 'hai_recontract', {
        mission_id: m.mission.id,
        expected_version: 5,
        ...contract(e.clock, { goal: 'other' }),
        ...gate,
      }),
      'contract_version_mismatch',
    );
    expect(stale.details).toMatchObject({ current_version: 2, expected_version: 5 });
  });

  it('lease_expired: a lease past its time, even while the key-value copy lives', async () => {
    const e = env();
    const m = await openMission(e);
    const l = await lease(e, 'analyst', m.mission.id, { ttl_seconds: 60 });
    e.clock.advance(61_000);
    const err = refused(
      await e.s.call('analyst', 'hai_get_contract', { lease_id: l.lease_id }),
      'lease_expired',
    );
    expect(err.details).toMatchObject({ lease_id: l.lease_id, expired_at: l.expires_at });
    refused(await prove(e, 'analyst', l.lease_id), 'lease_expired');
  });

  it('lease_revoked: a lease after a recontract', async () => {
    const e = env();
    const m = await openMission(e);
    const l = await lease(e, 'analyst', m.mission.id);
    await recontract(e, m.mission.id);
    const err = refused(
      await e.s.call('analyst', 'hai_check_activity', { lease_id: l.lease_id, activity: 'analysis' }),
      'lease_revoked',
    );
    expect(err.details).toMatchObject({ lease_epoch: 1, mission_epoch: 2, contract_version: 2 });
  });

  it('review_required: closing as completed without evidence', async () => {
    const e = env();
    const m = await openMission(e);
    const err = refused(
      await e.s.call('ceo', 'hai_close_mission', {
        mission_id: m.mission.id,
        outcome: 'completed',
        device_id: DEVICE,
      }),
      'review_required',
    );
    expect(((err.details?.criteria_without_evidence ?? []) as { id: string }[]).map((c) => c.id)).toEqual(
      criteria.map((c) => c.id),
    );
  });

  it('parallel_session_denied: one session more than the contract allows', async () => {
    const e = env();
    const m = await openMission(e, undefined, { max_sessions: 1 });
    await lease(e, 'analyst', m.mission.id);
    const err = refused(await authorize(e, 'writer', m.mission.id), 'parallel_session_denied');
    expect(err.details).toMatchObject({ max_sessions: 1, live_sessions: 1 });
  });

  it('device_mount_required: a device the project is not bound on', async () => {
    const e = env();
    const m = await openMission(e);
    const err = refused(
      await authorize(e, 'analyst', m.mission.id, { device_id: 'other' }),
      'device_mount_required',
    );
    expect(err.details).toEqual({ project_id: m.mission.project_id, device_id: 'other' });
  });

  it('not_found: an unknown mission, lease or criterion', async () => {
    const e = env();
    refused(await authorize(e, 'analyst', crypto.randomUUID(), { device_id: undefined }), 'not_found');
    refused(await e.s.call('analyst', 'hai_get_contract', { lease_id: crypto.randomUUID() }), 'not_found');
    const m = await openMission(e);
    const l = await lease(e, 'analyst', m.mission.id);
    const err = refused(await prove(e, 'analyst', l.lease_id, { criterion_id: 'nope' }), 'not_found');
    expect(err.details).toEqual({ criterion_id: 'nope', criteria: criteria.map((c) => c.id) });
  });

  it('invalid_state: accepting a proposal that is no longer the pending one', async () => {
    const { s } = env();
    const p = await bindProject(s);
    expectOk(await s.call('analyst', 'hai_propose_next_step', { project_id: p, content: 'one' }));
    expectOk(await s.call('analyst', 'hai_propose_next_step', { project_id: p, content: 'two' }));
    const err = refused(
      await s.call('ceo', 'hai_accept_next_step', { project_id: p, proposal_version: 1, ...gate }),
      'invalid_state',
    );
    expect(err.details).toEqual({ proposal_version: 1, pending_version: 2 });
  });

  it('idempotency_key_reuse: a checkpoint label or mission name reused with other content', async () => {
    const e = env();
    const p = await bindProject(e.s);
    expectOk(await e.s.call('analyst', 'hai_checkpoint', { project_id: p, label: 'x', summary: 'first' }));
    refused(
      await e.s.call('analyst', 'hai_checkpoint', { project_id: p, label: 'x', summary: 'second' }),
      'idempotency_key_reuse',
    );
    // Another agent (so no request-layer record): the durable layer refuses it too.
    refused(
      await e.s.call('writer', 'hai_checkpoint', { project_id: p, label: 'x', summary: 'third' }),
      'idempotency_key_reuse',
    );
    const name = uniq('m');
    expectOk(await e.s.call('ceo', 'hai_open_mission', missionArgs(e.clock, p, { name })));
    refused(
      await e.s.call('ceo', 'hai_open_mission', missionArgs(e.clock, p, { name, title: 'other title' })),
      'idempotency_key_reuse',
    );
  });

  it('tool_not_granted: a governance tool outside the agent’s grants', async () => {
    const e = env();
    refused(await e.s.call('analyst', 'hai_open_mission', missionArgs(e.clock, null)), 'tool_not_granted');
    refused(
      await e.s.call('ceo', 'hai_proof', {
        lease_id: crypto.randomUUID(),
        criterion_id: 'c',
        checked: 'c',
        result: 'pass',
      }),
      'tool_not_granted',
    );
  });

  // in_progress needs the first call held open: a second connection holds the mission row (not PGlite).
  if (stack.db === 'postgres') {
    it('in_progress: the same authorize while the first is still running', async () => {
      const e = env();
      const m = await openMission(e);
      const holder = await holdMissionRow(e, m.mission.id);
      try {
        const first = authorize(e, 'analyst', m.mission.id);
        await holder.untilWaiting();
        refused(await authorize(e, 'analyst', m.mission.id), 'in_progress');
        await holder.commit();
        expectOk(await first);
      } finally {
        await holder.end();
      }
    });
  }
});
