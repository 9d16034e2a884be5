// Hints of the hai tools name only tools the caller holds, and otherwise the agent to hand the step to
// (docs/contract.md "Grants and gates"); the table of who holds what that they use matches agents/*.md.
import { expect, it } from 'vitest';
import { AGENT_NAMES, type AgentName } from '../../../src/agents/grants.ts';
import { loadAgentsFromDir } from '../../../src/agents/load_node.ts';
import type { Envelope } from '../../../src/contract/envelope.ts';
import { grantedTo, type HaiStep } from '../../../src/governance/roles.ts';
import { authorize, bindProject, closeMission, DB_STACKS, forEachStack, openMission, uniq } from './_hai.ts';

it('the hand-off table of the hai hints is the grants of agents/*.md', async () => {
  const agents = await loadAgentsFromDir('agents');
  for (const [tool, holders] of Object.entries(grantedTo) as [HaiStep, readonly string[]][]) {
    const granted = AGENT_NAMES.filter((a) => agents.get(a)?.tools.includes(tool));
    expect([...holders].sort(), tool).toEqual([...granted].sort());
  }
});

forEachStack('hai hints', DB_STACKS, (env) => {
  /** The hint of a refusal, checked to name only hai tools `agent` is granted. */
  const hintOf = async (agent: AgentName, res: Envelope, code: string) => {
    if (res.ok) throw new Error(`expected ${code}, got success`);
    expect(res.error.code).toBe(code);
    const hint = res.error.hint ?? '';
    const grants = (await loadAgentsFromDir('agents')).get(agent)?.tools ?? [];
    for (const tool of hint.match(/\bhai_[a-z_]+\b/g) ?? []) expect(grants, hint).toContain(tool);
    return hint;
  };

  it('missing_project: the ceo binds it itself; a worker is told to ask the ceo', async () => {
    const { s } = env();
    const unknown = uniq('nope');
    const worker = await hintOf(
      'analyst',
      await s.call('analyst', 'hai_park', { project_id: unknown, text: 't' }),
      'missing_project',
    );
    expect(worker).toBe(
      'Ask the ceo to bind the project (owner-gated) first, or check the id with hai_status.',
    );
    const ceo = await hintOf(
      'ceo',
      await s.call('ceo', 'hai_set_focus', { project_id: unknown, lane: 'a', state: 'active' }),
      'missing_project',
    );
    expect(ceo).toBe(
      'Bind the project with hai_bind_project (owner-gated) first, or check the id with hai_status.',
    );
  });

  it('device_mount_required: a worker asks the ceo to bind the device', async () => {
    const e = env();
    const m = await openMission(e);
    const hint = await hintOf(
      'analyst',
      await authorize(e, 'analyst', m.mission.id, { device_id: 'elsewhere' }),
      'device_mount_required',
    );
    expect(hint).toBe('Ask the ceo to bind the project on this device (owner-gated).');
  });

  it('review_required: the ceo hands the proof to the agents that record it', async () => {
    const e = env();
    const m = await openMission(e);
    const hint = await hintOf('ceo', await closeMission(e, m.mission.id, 'completed'), 'review_required');
    expect(hint).toBe(
      'Ask the analyst, researcher, writer or qa to record passing evidence for each listed criterion (under a session lease); the owner then confirms each free-text criterion on the mission’s page in the console; then close again.',
    );
  });

  it('mission_not_active: a worker on an expired mission is told to ask the ceo', async () => {
    const e = env();
    const m = await openMission(e, undefined, {
      expires_at: new Date(e.clock.now().getTime() + 3_600_000).toISOString(),
    });
    e.clock.advance(3_600_001);
    const hint = await hintOf('writer', await authorize(e, 'writer', m.mission.id), 'mission_not_active');
    expect(hint).toBe('Ask the ceo to have the owner extend it, or ask the ceo to close it.');
  });

  it('invalid_args: a checkpoint writing NEXT_STEP.md points a worker to the proposal and the ceo', async () => {
    const { s } = env();
    const p = await bindProject(s);
    const hint = await hintOf(
      'writer',
      await s.call('writer', 'hai_checkpoint', {
        project_id: p,
        label: 'x',
        summary: 's',
        artifacts: [{ name: 'NEXT_STEP.md', content: 'c' }],
      }),
      'invalid_args',
    );
    expect(hint).toBe('Propose it with hai_propose_next_step; the ceo accepts it with the owner’s approval.');
  });

  it('not_found (lease): a worker is pointed to the tool it holds', async () => {
    const { s } = env();
    const hint = await hintOf(
      'qa',
      await s.call('qa', 'hai_get_contract', { lease_id: crypto.randomUUID() }),
      'not_found',
    );
    expect(hint).toBe('Authorize a session with hai_authorize_session and use the lease_id it returns.');
  });
});
