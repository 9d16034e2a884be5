// One test per row of the governance gate matrix, for the mission tools (open, sessions, contract,
// activities, parked items, recontract, close, proof): what each may change and the gate in front of it,
// through the official MCP client. The project tools are in gate_matrix.test.ts.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { hai_check_activity } from '../../../functions/hai/hai_check_activity.ts';
import type { hai_park_item } from '../../../functions/hai/hai_park_item.ts';
import type { hai_proof } from '../../../functions/hai/hai_proof.ts';
import type { hai_recontract } from '../../../functions/hai/hai_recontract.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import * as schema from '../../../src/db/schema/hai.ts';
import { auditMark } from '../../harness/rows.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import {
  abandonMission,
  authorize,
  bindProject,
  closeMission,
  confirmCriteria,
  contract,
  criteria,
  DEVICE,
  forEachStack,
  gate,
  LEASE_STACKS,
  lease,
  leaseOf,
  missionArgs,
  openMission,
  prove,
  recontract,
  tableChanges,
} from './_hai.ts';

forEachStack('hai gate matrix: missions', LEASE_STACKS, (env) => {
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
    await confirmCriteria(e, id, ['facts-mapped']);
    const still = await closeMission(e, id, 'completed');
    expect(still.ok ? null : still.error.details?.criteria_without_evidence).toEqual([
      { id: 'law-verified', verification: criteria[1]?.verification },
    ]);
    expect(errorCode(await closeMission(e, id, 'abandoned'))).toBe('owner_gate_required');
    expectOk(await proof('law-verified', 'pass'));
    const unconfirmed = await closeMission(e, id, 'completed');
    expect(unconfirmed.ok ? null : unconfirmed.error.details?.awaiting_owner_confirmation).toEqual([
      'law-verified',
    ]);
    await confirmCriteria(e, id, ['law-verified']);
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
