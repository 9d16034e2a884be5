// C4 for every mutating hai tool: the same call again has no second effect — every hai table is unchanged —
// whether the key-value store replays it or (after the replay record is gone) the durable layer answers.
import { like } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { hai_bind_project } from '../../../functions/hai/hai_bind_project.ts';
import type { AgentName } from '../../../src/agents/grants.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import type { Envelope } from '../../../src/contract/envelope.ts';
import { kvEntries } from '../../../src/db/schema/kv_entries.ts';
import type { Db } from '../../../src/db/types.ts';
import { expectOk } from '../../harness/server.ts';
import {
  bindProject,
  contract,
  DEVICE,
  forEachStack,
  gate,
  HAI_TABLES,
  type HaiEnv,
  LEASE_STACKS,
  lease,
  missionArgs,
  openMission,
  uniq,
} from './_hai.ts';

/** Every row of every hai table, in a stable order: equal snapshots mean nothing was written. */
async function snapshot(db: Db): Promise<string> {
  const all = await Promise.all(Object.values(HAI_TABLES).map((t) => db.select().from(t)));
  return JSON.stringify(all.map((rows) => rows.map((r) => JSON.stringify(r)).sort()));
}

/** Calls once (must succeed), then again twice: replayed by the KV layer, then with the replay record gone. */
async function retried(e: HaiEnv, agent: AgentName, tool: string, args: Record<string, unknown>) {
  const first = await e.s.call(agent, tool, args);
  expectOk(first);
  const before = await snapshot(e.s.db.db);
  const again = await e.s.call(agent, tool, args);
  expectOk(again);
  expect(await snapshot(e.s.db.db)).toBe(before);
  let durable: Envelope | undefined;
  if (e.stack.kv === 'postgres') {
    // Past the replay window (or after a flush): only the durable layer remains.
    await e.s.db.db.delete(kvEntries).where(like(kvEntries.key, 'idem:%'));
    durable = await e.s.call(agent, tool, args);
    expectOk(durable);
    expect(durable.ok && durable.replayed).toBeFalsy();
    expect(await snapshot(e.s.db.db)).toBe(before);
  }
  return { first, again, durable };
}

const created = (env: Envelope | undefined) =>
  env?.ok ? (env.data as { created?: unknown }).created : undefined;

forEachStack('hai retries', LEASE_STACKS, (env) => {
  it('hai_bind_project', async () => {
    const r = await retried(env(), 'ceo', 'hai_bind_project', {
      project_id: uniq('p'),
      device_id: 'd',
      mount_path: '/srv/p',
      ...gate,
    });
    if (r.durable)
      expect((r.durable.ok && (r.durable.data as ToolData<typeof hai_bind_project>).changed) === false).toBe(
        true,
      );
  });

  it('hai_park', async () => {
    const e = env();
    const p = await bindProject(e.s);
    const r = await retried(e, 'analyst', 'hai_park', {
      project_id: p,
      text: 'Ask about the 2019 plan',
      source: 'hearing',
    });
    if (r.durable) expect(created(r.durable)).toBe(false);
  });

  it('hai_set_focus', async () => {
    const e = env();
    const p = await bindProject(e.s);
    await retried(e, 'ceo', 'hai_set_focus', {
      project_id: p,
      lane: 'analysis',
      state: 'active',
      note: 'claims',
    });
  });

  it('hai_propose_next_step', async () => {
    const e = env();
    const p = await bindProject(e.s);
    const r = await retried(e, 'writer', 'hai_propose_next_step', {
      project_id: p,
      content: '# Next\nDraft the background',
    });
    if (r.durable) expect(created(r.durable)).toBe(false);
  });

  it('hai_accept_next_step', async () => {
    const e = env();
    const p = await bindProject(e.s);
    expectOk(
      await e.s.call('writer', 'hai_propose_next_step', { project_id: p, content: 'Draft the ruling' }),
    );
    const r = await retried(e, 'ceo', 'hai_accept_next_step', {
      project_id: p,
      proposal_version: 1,
      ...gate,
    });
    if (r.durable) expect(created(r.durable)).toBe(false);
  });

  it('hai_checkpoint', async () => {
    const e = env();
    const p = await bindProject(e.s);
    const r = await retried(e, 'analyst', 'hai_checkpoint', {
      project_id: p,
      label: 'analysis-done',
      summary: 'Claims mapped',
      artifacts: [{ name: 'PROJECT_STATE.md', content: '# State\nanalysis done' }],
    });
    if (r.durable) expect(created(r.durable)).toBe(false);
  });

  it('hai_open_mission', async () => {
    const e = env();
    const p = await bindProject(e.s);
    const r = await retried(e, 'ceo', 'hai_open_mission', missionArgs(e.clock, p));
    if (r.durable) expect(created(r.durable)).toBe(false);
  });

  it('hai_authorize_session', async () => {
    const e = env();
    const m = await openMission(e);
    const r = await retried(e, 'analyst', 'hai_authorize_session', {
      mission_id: m.mission.id,
      contract_version: 1,
      device_id: DEVICE,
      harness_id: 'h1',
    });
    expect(created(r.again)).toBe(false);
  });

  it('hai_check_activity', async () => {
    const e = env();
    const m = await openMission(e);
    const l = await lease(e, 'researcher', m.mission.id);
    await retried(e, 'researcher', 'hai_check_activity', {
      lease_id: l.lease_id,
      activity: 'research:case-law',
    });
  });

  it('hai_proof', async () => {
    const e = env();
    const m = await openMission(e);
    const l = await lease(e, 'qa', m.mission.id);
    const r = await retried(e, 'qa', 'hai_proof', {
      lease_id: l.lease_id,
      criterion_id: 'facts-mapped',
      checked: 'Every fact against its page',
      result: 'pass',
      evidence: 'protocol p. 4',
      device_id: DEVICE,
    });
    if (r.durable) expect(created(r.durable)).toBe(false);
  });

  it('hai_park_item', async () => {
    const e = env();
    const m = await openMission(e);
    const r = await retried(e, 'researcher', 'hai_park_item', {
      mission_id: m.mission.id,
      item: 'Compare with foreign law',
      rationale: 'out of scope',
    });
    if (r.durable) expect(created(r.durable)).toBe(false);
  });

  it('hai_recontract', async () => {
    const e = env();
    const m = await openMission(e);
    await lease(e, 'analyst', m.mission.id);
    const r = await retried(e, 'ceo', 'hai_recontract', {
      mission_id: m.mission.id,
      expected_version: 1,
      ...contract(e.clock, { goal: 'Wider goal' }),
      ...gate,
    });
    if (r.durable) expect(created(r.durable)).toBe(false);
  });

  it('hai_close_mission', async () => {
    const e = env();
    const m = await openMission(e);
    await lease(e, 'analyst', m.mission.id);
    const r = await retried(e, 'ceo', 'hai_close_mission', {
      mission_id: m.mission.id,
      outcome: 'abandoned',
      device_id: DEVICE,
      ...gate,
    });
    if (r.durable) expect(created(r.durable)).toBe(false);
  });
});
