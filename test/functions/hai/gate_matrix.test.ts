// One test per row of the governance gate matrix, for the project tools (health, status, next step,
// artifacts, inbox, focus, proposals, checkpoints, advice, binding): what each may change and the gate in
// front of it, through the official MCP client. The mission tools are in gate_matrix_missions.test.ts.
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { hai_get_next_step } from '../../../functions/hai/hai_get_next_step.ts';
import type { hai_health } from '../../../functions/hai/hai_health.ts';
import type { hai_recover } from '../../../functions/hai/hai_recover.ts';
import type { hai_set_focus } from '../../../functions/hai/hai_set_focus.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { auditLog } from '../../../src/db/schema/audit_log.ts';
import * as schema from '../../../src/db/schema/hai.ts';
import { auditMark } from '../../harness/rows.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import {
  bindProject,
  forEachStack,
  gate,
  LEASE_STACKS,
  lease,
  openMission,
  tableChanges,
  uniq,
} from './_hai.ts';

forEachStack('hai gate matrix: projects', LEASE_STACKS, (env) => {
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
});
