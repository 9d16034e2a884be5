// One test per row of the governance gate matrix: what each tool may change and
// the gate that stands in front of it, through the official MCP client.
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { hai_check_activity } from '../../../functions/hai/hai_check_activity.ts';
import type { hai_get_next_step } from '../../../functions/hai/hai_get_next_step.ts';
import type { hai_health } from '../../../functions/hai/hai_health.ts';
import type { hai_park_item } from '../../../functions/hai/hai_park_item.ts';
import type { hai_proof } from '../../../functions/hai/hai_proof.ts';
import type { hai_recontract } from '../../../functions/hai/hai_recontract.ts';
import type { hai_recover } from '../../../functions/hai/hai_recover.ts';
import type { hai_set_focus } from '../../../functions/hai/hai_set_focus.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { auditLog } from '../../../src/db/schema/audit_log.ts';
import * as schema from '../../../src/db/schema/hai.ts';
import type { Db } from '../../../src/db/types.ts';
import { auditMark } from '../../harness/rows.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import {
  abandonMission,
  authorize,
  bindProject,
  closeMission,
  contract,
  criteria,
  DEVICE,
  forEachStack,
  gate,
  HAI_TABLES,
  LEASE_STACKS,
  lease,
  leaseOf,
  missionArgs,
  openMission,
  prove,
  recontract,
  uniq,
} from './_hai.ts';

const counts = async (db: Db) => {
  const out: Record<string, number> = {};
  for (const [name, t] of Object.entries(HAI_TABLES)) out[name] = (await db.select().from(t)).length;
  return out;
};

/** Runs `action` and says which hai tables it changed, as { table: row delta } ({} when none). */
async function tableChanges(db: Db, action: () => Promise<unknown>): Promise<Record<string, number>> {
  const a = await counts(db);
  await action();
  const b = await counts(db);
  return Object.fromEntries(
    Object.keys(b).flatMap((k) => (b[k] === a[k] ? [] : [[k, (b[k] ?? 0) - (a[k] ?? 0)]])),
  );
}

forEachStack('hai gate matrix', LEASE_STACKS, (env) => {
  it('hai_health: no gate, no mutation (any granted agent, no audit row)', async () => {
    const { s } = env();
    const audit = await auditMark(s.db.db);
    const data = expectOk<ToolData<typeof hai_health>>(await s.call('ceo', 'hai_health', {}));
    expect(data).toMatchObject({ healthy: true, database: 'up', kv: { status: 'up', kind: env().stack.kv } });
    expect(await audit()).toEqual([]);
  });

  it('hai_status: no gate, no mutation', async () => {
    const { s } = env();
    const p = await bindProject(s);
    const changed = await tableChanges(s.db.db, async () => {
      for (const agent of ['ceo', 'analyst', 'qa'] as const)
        expectOk(await s.call(agent, 'hai_status', { project_id: p }));
    });
    expect(changed).toEqual({});
  });

  it('hai_get_next_step: no gate, no mutation', async () => {
    const { s } = env();
    const p = await bindProject(s);
    const changed = await tableChanges(s.db.db, async () => {
      expect((await s.call('writer', 'hai_get_next_step', { project_id: p })).status).toBe('empty');
    });
    expect(changed).toEqual({});
  });

  it('hai_read_artifacts: no gate, no mutation', async () => {
    const { s } = env();
    const p = await bindProject(s);
    const changed = await tableChanges(s.db.db, async () => {
      expect((await s.call('researcher', 'hai_read_artifacts', { project_id: p })).status).toBe('empty');
    });
    expect(changed).toEqual({});
  });

  it('hai_park: changes the inbox only, no gate', async () => {
    const { s } = env();
    const p = await bindProject(s);
    const changed = await tableChanges(s.db.db, async () =>
      expectOk(await s.call('qa', 'hai_park', { project_id: p, text: 'Check the 2018 permit later' })),
    );
    expect(changed).toEqual({ inbox: 1 });
  });

  it('hai_set_focus: at most two active lanes (max_active_lanes), parking frees a slot', async () => {
    const { s } = env();
    const p = await bindProject(s);
    const focus = (lane: string, state: string) =>
      s.call('ceo', 'hai_set_focus', { project_id: p, lane, state });
    expectOk(await focus('analysis', 'active'));
    expectOk(await focus('research', 'active'));
    const third = await focus('drafting', 'active');
    expect(errorCode(third)).toBe('max_active_lanes');
    expect(third.ok ? null : third.error.details).toMatchObject({ active: ['analysis', 'research'], max: 2 });
    // Re-activating an active lane is no third lane.
    expectOk(await focus('research', 'active'));
    expectOk(await focus('analysis', 'parked'));
    const now = expectOk<ToolData<typeof hai_set_focus>>(await focus('drafting', 'active'));
    expect(now.active_lanes).toEqual(['drafting', 'research']);
  });

  it('hai_propose_next_step: writes NEXT_STEP.proposed.md only, no gate; NEXT_STEP.md untouched', async () => {
    const { s } = env();
    const p = await bindProject(s);
    const changed = await tableChanges(s.db.db, async () =>
      expectOk(
        await s.call('analyst', 'hai_propose_next_step', { project_id: p, content: 'Map the claims' }),
      ),
    );
    expect(changed).toEqual({ artifacts: 1, proposals: 1 });
    const names = await s.db.db
      .select({ name: schema.haiArtifacts.name })
      .from(schema.haiArtifacts)
      .where(eq(schema.haiArtifacts.projectId, p));
    expect(names.map((n) => n.name)).toEqual(['NEXT_STEP.proposed.md']);
  });

  it('hai_accept_next_step: owner gate, and a proposal is required (no_proposal)', async () => {
    const { s } = env();
    const p = await bindProject(s);
    expect(
      errorCode(await s.call('ceo', 'hai_accept_next_step', { project_id: p, proposal_version: 1, ...gate })),
    ).toBe('no_proposal');
    expectOk(await s.call('analyst', 'hai_propose_next_step', { project_id: p, content: 'Map the claims' }));
    for (const g of [{}, { owner_ack: true }, { reason: 'ok' }, { owner_ack: false, reason: 'ok' }]) {
      expect(
        errorCode(await s.call('ceo', 'hai_accept_next_step', { project_id: p, proposal_version: 1, ...g })),
      ).toBe('owner_gate_required');
    }
    const audit = await auditMark(s.db.db);
    expectOk(await s.call('ceo', 'hai_accept_next_step', { project_id: p, proposal_version: 1, ...gate }));
    expect(await audit()).toMatchObject([
      { tool: 'hai_accept_next_step', ownerAck: true, ownerReason: gate.reason, agent: 'ceo' },
    ]);
    const next = expectOk<ToolData<typeof hai_get_next_step>>(
      await s.call('ceo', 'hai_get_next_step', { project_id: p }),
    );
    expect(next.next_step).toMatchObject({ content: 'Map the claims', version: 1 });
  });

  it('hai_checkpoint: changes history only, no gate', async () => {
    const { s } = env();
    const p = await bindProject(s);
    const changed = await tableChanges(s.db.db, async () =>
      expectOk(
        await s.call('writer', 'hai_checkpoint', {
          project_id: p,
          label: 'c1',
          summary: 'Background drafted',
        }),
      ),
    );
    expect(changed).toEqual({ checkpoints: 1 });
  });

  it('hai_recover: reads and advises, changes nothing', async () => {
    const e = env();
    const m = await openMission(e);
    await lease(e, 'analyst', m.mission.id);
    const audit = await auditMark(e.s.db.db);
    const changed = await tableChanges(e.s.db.db, async () => {
      const advice = expectOk<ToolData<typeof hai_recover>>(
        await e.s.call('ceo', 'hai_recover', { project_id: m.mission.project_id }),
      );
      expect(advice.advice.map((a) => a.kind)).toContain('criteria_without_evidence');
    });
    expect(changed).toEqual({});
    expect(await audit()).toEqual([]);
  });

  it('hai_open_mission: only a valid finite contract; no second active mission', async () => {
    const e = env();
    const p = await bindProject(e.s);
    const open = (over: Record<string, unknown>) =>
      e.s.call('ceo', 'hai_open_mission', missionArgs(e.clock, p, over));
    const invalid: [string, Record<string, unknown>][] = [
      ['no criteria', { criteria: [] }],
      ['a criterion without verification', { criteria: [{ id: 'x', description: 'd' }] }],
      ['an empty verification', { criteria: [{ id: 'x', description: 'd', verification: '  ' }] }],
      ['no expiry', { expires_at: undefined }],
      ['an expiry in the past', { expires_at: new Date(e.clock.now().getTime() - 1000).toISOString() }],
      ['an open-ended expiry', { expires_at: '2099-01-01T00:00:00Z' }],
      ['duplicate criterion ids', { criteria: [criteria[0], criteria[0]] }],
    ];
    for (const [what, over] of invalid) expect(errorCode(await open(over)), what).toBe('invalid_args');
    expect(
      await e.s.db.db.select().from(schema.haiMissions).where(eq(schema.haiMissions.projectId, p)),
    ).toEqual([]);
    expectOk(await open({}));
    expect(errorCode(await open({}))).toBe('active_mission_exists');
  });

  it('hai_bind_project: owner gate', async () => {
    const { s } = env();
    const id = uniq('p');
    const args = { project_id: id, device_id: 'd', mount_path: '/x' };
    expect(errorCode(await s.call('ceo', 'hai_bind_project', args))).toBe('owner_gate_required');
    expect(
      errorCode(await s.call('ceo', 'hai_bind_project', { ...args, owner_ack: true, reason: ' ' })),
    ).toBe('owner_gate_required');
    expect(await s.db.db.select().from(schema.haiProjects).where(eq(schema.haiProjects.id, id))).toEqual([]);
    expectOk(await s.call('ceo', 'hai_bind_project', { ...args, ...gate }));
    const [row] = await s.db.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.tool, 'hai_bind_project'),
          eq(auditLog.idempotencyKey, `${id}:d:/x`),
          eq(auditLog.outcome, 'ok'),
        ),
      );
    expect(row).toMatchObject({ ownerAck: true, ownerReason: gate.reason, agent: 'ceo' });
  });

  it('hai_authorize_session: active mission, current contract version, capacity, device', async () => {
    const e = env();
    const m = await openMission(e, undefined, { max_sessions: 1 });
    const id = m.mission.id;
    const auth = (agent: 'analyst' | 'writer', args: Record<string, unknown>) =>
      authorize(e, agent, id, args);
    expect(errorCode(await auth('analyst', { contract_version: 2 }))).toBe('contract_version_mismatch');
    expect(errorCode(await auth('analyst', { device_id: undefined }))).toBe('invalid_args');
    expect(errorCode(await auth('analyst', { device_id: 'unbound-device' }))).toBe('device_mount_required');
    leaseOf(await auth('analyst', {}));
    expect(errorCode(await auth('writer', {}))).toBe('parallel_session_denied');
    // Past the mission's expiry nothing is authorized.
    const m2 = await openMission(e, undefined, {
      expires_at: new Date(e.clock.now().getTime() + 3_600_000).toISOString(),
    });
    e.clock.advance(3_600_001);
    expect(errorCode(await authorize(e, 'writer', m2.mission.id))).toBe('mission_not_active');
    // A closed mission neither.
    const m3 = await openMission(e);
    await abandonMission(e, m3.mission.id);
    expect(errorCode(await authorize(e, 'writer', m3.mission.id))).toBe('mission_not_active');
  });

  it('hai_get_contract: a valid, unexpired, unrevoked lease', async () => {
    const e = env();
    const m = await openMission(e);
    const l = await lease(e, 'analyst', m.mission.id, { ttl_seconds: 600 });
    expectOk(await e.s.call('analyst', 'hai_get_contract', { lease_id: l.lease_id }));
    // Another agent cannot use it.
    expect(errorCode(await e.s.call('writer', 'hai_get_contract', { lease_id: l.lease_id }))).toBe(
      'not_found',
    );
    e.clock.set(new Date(Date.parse(l.expires_at)));
    expect(errorCode(await e.s.call('analyst', 'hai_get_contract', { lease_id: l.lease_id }))).toBe(
      'lease_expired',
    );
    const l2 = await lease(e, 'analyst', m.mission.id, { harness_id: 'second' });
    await recontract(e, m.mission.id);
    expect(errorCode(await e.s.call('analyst', 'hai_get_contract', { lease_id: l2.lease_id }))).toBe(
      'lease_revoked',
    );
  });

  it('hai_check_activity: valid lease; writes an audit record only', async () => {
    const e = env();
    const m = await openMission(e);
    const l = await lease(e, 'researcher', m.mission.id);
    const cases: [string, boolean, string][] = [
      ['research', true, 'in_scope'],
      ['Research:Case-Law', true, 'in_scope'],
      ['research:foreign-law', false, 'out_of_scope'],
      ['drafting', false, 'out_of_scope'],
      ['researching', false, 'not_listed'],
      ['site-visit', false, 'not_listed'],
    ];
    const changed = await tableChanges(e.s.db.db, async () => {
      for (const [activity, inScope, rule] of cases) {
        const r = expectOk<ToolData<typeof hai_check_activity>>(
          await e.s.call('researcher', 'hai_check_activity', { lease_id: l.lease_id, activity }),
        );
        expect(r, activity).toMatchObject({ in_scope: inScope, rule });
      }
    });
    expect(changed).toEqual({ activity: cases.length });
    await abandonMission(e, m.mission.id);
    expect(
      errorCode(await e.s.call('researcher', 'hai_check_activity', { lease_id: l.lease_id, activity: 'x' })),
    ).toBe('lease_revoked');
  });

  it('hai_park_item: rationale required; a parked item carries no execution right', async () => {
    const e = env();
    const m = await openMission(e);
    for (const rationale of [undefined, '', '   ']) {
      const r = await e.s.call('analyst', 'hai_park_item', {
        mission_id: m.mission.id,
        item: 'drafting:ruling',
        rationale,
      });
      expect(errorCode(r), String(rationale)).toBe('invalid_args');
    }
    const parked = expectOk<ToolData<typeof hai_park_item>>(
      await e.s.call('analyst', 'hai_park_item', {
        mission_id: m.mission.id,
        item: 'drafting:ruling',
        rationale: 'not in this mission',
      }),
    );
    expect(parked.parked.execution_right).toBe(false);
    // Parking it did not bring it into scope.
    const l = await lease(e, 'analyst', m.mission.id);
    expect(
      expectOk<ToolData<typeof hai_check_activity>>(
        await e.s.call('analyst', 'hai_check_activity', {
          lease_id: l.lease_id,
          activity: 'drafting:ruling',
        }),
      ).in_scope,
    ).toBe(false);
  });

  it('hai_recontract: owner gate; break_glass needs a marker, which is recorded', async () => {
    const e = env();
    const m = await openMission(e);
    const terms = {
      mission_id: m.mission.id,
      expected_version: 1,
      ...contract(e.clock, { goal: 'New goal' }),
    };
    expect(errorCode(await e.s.call('ceo', 'hai_recontract', terms))).toBe('owner_gate_required');
    expect(errorCode(await e.s.call('ceo', 'hai_recontract', { ...terms, break_glass: true }))).toBe(
      'invalid_args',
    );
    expect(
      errorCode(
        await e.s.call('ceo', 'hai_recontract', {
          ...terms,
          break_glass: false,
          break_glass_marker: 'INC-1',
          ...gate,
        }),
      ),
    ).toBe('invalid_args');
    const audit = await auditMark(e.s.db.db);
    const v2 = expectOk<ToolData<typeof hai_recontract>>(
      await e.s.call('ceo', 'hai_recontract', {
        ...terms,
        break_glass: true,
        break_glass_marker: 'INC-2026-11-30',
      }),
    );
    expect(v2.contract).toMatchObject({
      version: 2,
      break_glass: true,
      break_glass_marker: 'INC-2026-11-30',
    });
    expect(await audit()).toMatchObject([{ tool: 'hai_recontract', outcome: 'ok', ownerAck: false }]);
    const v3 = expectOk<ToolData<typeof hai_recontract>>(
      await e.s.call('ceo', 'hai_recontract', { ...terms, expected_version: 2, ...gate }),
    );
    expect(v3.contract).toMatchObject({ version: 3, break_glass: false });
  });

  it('hai_close_mission: completed needs passing evidence per criterion; abandoned needs the owner gate; terminal', async () => {
    const e = env();
    const m = await openMission(e);
    const id = m.mission.id;
    const early = await closeMission(e, id, 'completed');
    expect(errorCode(early)).toBe('review_required');
    expect(early.ok ? null : early.error.details?.criteria_without_evidence).toEqual(
      criteria.map((c) => ({ id: c.id, verification: c.verification })),
    );
    const l = await lease(e, 'qa', m.mission.id);
    const proof = (criterion_id: string, result: string) =>
      prove(e, 'qa', l.lease_id, { criterion_id, result });
    expectOk(await proof('facts-mapped', 'pass'));
    expectOk(await proof('law-verified', 'fail'));
    const still = await closeMission(e, id, 'completed');
    expect(still.ok ? null : still.error.details?.criteria_without_evidence).toEqual([
      { id: 'law-verified', verification: criteria[1]?.verification },
    ]);
    expect(errorCode(await closeMission(e, id, 'abandoned'))).toBe('owner_gate_required');
    expectOk(await proof('law-verified', 'pass'));
    expectOk(await closeMission(e, id, 'completed'));
    expect(errorCode(await closeMission(e, id, 'abandoned', gate))).toBe('mission_not_active');
    expect(
      errorCode(
        await e.s.call('ceo', 'hai_recontract', {
          mission_id: id,
          expected_version: 1,
          ...contract(e.clock),
          ...gate,
        }),
      ),
    ).toBe('mission_not_active');
  });

  it('hai_proof: valid lease; device_id of a bound device when the contract names a project', async () => {
    const e = env();
    const m = await openMission(e);
    const l = await lease(e, 'analyst', m.mission.id);
    const proof = (args: Record<string, unknown>) => prove(e, 'analyst', l.lease_id, args);
    expect(errorCode(await proof({ device_id: undefined }))).toBe('invalid_args');
    expect(errorCode(await proof({ device_id: 'elsewhere' }))).toBe('device_mount_required');
    const ok = expectOk<ToolData<typeof hai_proof>>(await proof({ device_id: DEVICE }));
    expect(ok.proof).toMatchObject({ recorded_by: 'analyst', device_id: DEVICE });
    // A mission without a project needs no device.
    const free = await openMission(e, null);
    const fl = leaseOf(await authorize(e, 'analyst', free.mission.id, { device_id: undefined }));
    expectOk(await prove(e, 'analyst', fl.lease_id, { criterion_id: 'law-verified', device_id: undefined }));
  });
});
