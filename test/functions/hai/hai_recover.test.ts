import { expect, it } from 'vitest';
import type { hai_recover } from '../../../functions/hai/hai_recover.ts';
import type { AgentName } from '../../../src/agents/grants.ts';
import { loadAgentsFromDir } from '../../../src/agents/load_node.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { bindProject, DB_STACKS, deniedTo, forEachStack, lease, openMission } from './_hai.ts';

type Recover = ToolData<typeof hai_recover>;

/** The hai tools a text names. */
const toolsNamed = (text: string) => text.match(/\bhai_[a-z_]+\b/g) ?? [];

/** The grants of agents/*.md. */
const grantsOf = async (agent: AgentName) => (await loadAgentsFromDir('agents')).get(agent)?.tools ?? [];

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

forEachStack('hai_recover next actions', DB_STACKS, (env) => {
  it('name only tools the caller holds, and hand the other steps to the agent that holds them', async () => {
    const e = env();
    const m = await openMission(e, undefined, {
      expires_at: new Date(e.clock.now().getTime() + 2 * 3_600_000).toISOString(),
    });
    const p = m.mission.project_id as string;
    expectOk(await e.s.call('writer', 'hai_propose_next_step', { project_id: p, content: 'next' }));
    await lease(e, 'analyst', m.mission.id, { ttl_seconds: 300 });
    e.clock.advance(301_000);
    await lease(e, 'qa', m.mission.id, { ttl_seconds: 600 });
    /** Every action hai_recover gives `agent`, by kind, now and once the mission expired. */
    const actions = async (agent: AgentName) => {
      const advice = expectOk<Recover>(await e.s.call(agent, 'hai_recover', { project_id: p })).advice;
      const grants = await grantsOf(agent);
      for (const a of advice) {
        for (const tool of [...toolsNamed(a.action), ...toolsNamed(a.message)]) {
          expect(grants, `${agent}, ${a.kind}: ${a.action}`).toContain(tool);
        }
      }
      return Object.fromEntries(advice.map((a) => [a.kind, a.action]));
    };
    const ceo = await actions('ceo');
    const analyst = await actions('analyst');
    const qa = await actions('qa');
    expect(Object.keys(ceo).sort()).toEqual([
      'criteria_without_evidence',
      'lease_expiring',
      'lease_stale',
      'proposal_pending',
    ]);
    // The ceo closes and accepts itself; proof and sessions are the workers'.
    expect(ceo.criteria_without_evidence).toContain('hai_close_mission');
    expect(ceo.criteria_without_evidence).toContain('Ask the analyst, researcher, writer or qa to verify');
    expect(ceo.proposal_pending).toContain('hai_accept_next_step');
    expect(ceo.lease_stale).toContain('ask the analyst to authorize a new session');
    expect(ceo.lease_expiring).toContain('Tell the qa:');
    // A worker proves and renews its own session; closing and accepting are the ceo's.
    expect(analyst.criteria_without_evidence).toContain('hai_proof');
    expect(analyst.criteria_without_evidence).toContain('ask the ceo to close the mission');
    expect(analyst.proposal_pending).toMatch(/^Ask the ceo to show it to the owner/);
    expect(analyst.lease_stale).toContain('with hai_authorize_session');
    expect(qa.lease_expiring).toContain('record proof with hai_proof');
    expect(qa.lease_stale).toContain('ask the analyst to authorize a new session');

    e.clock.advance(2 * 3_600_000);
    const late = { ceo: await actions('ceo'), writer: await actions('writer') };
    expect(late.ceo.mission_expired).toContain('hai_recontract');
    expect(late.writer.mission_expired).toBe(
      'Tell the ceo: the owner decides whether to extend it or end it',
    );
  });
});

deniedTo('hai_recover', 'writer', {}, true);
