import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { haiContracts } from '../../../src/db/schema/hai.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import {
  bindProject,
  contract,
  criteria,
  DB_STACKS,
  deniedTo,
  forEachStack,
  type MissionData,
  missionArgs,
  movableClock,
  uniq,
} from './_hai.ts';

forEachStack('hai_open_mission', DB_STACKS, (env) => {
  it('opens a mission with contract v1; the same call again returns it', async () => {
    const e = env();
    const p = await bindProject(e.s);
    const args = missionArgs(e.clock, p, { max_sessions: 3 });
    const m = expectOk<MissionData>(await e.s.call('ceo', 'hai_open_mission', args));
    expect(m).toMatchObject({
      created: true,
      mission: { name: args.name, project_id: p, state: 'active', contract_version: 1 },
      contract: {
        version: 1,
        criteria,
        max_sessions: 3,
        expires_at: new Date(args.expires_at).toISOString(),
      },
    });
    expect(
      await e.s.db.db.select().from(haiContracts).where(eq(haiContracts.missionId, m.mission.id)),
    ).toHaveLength(1);
    // The retry is the first result replayed; the scope labels were normalised (lower case, single spaces).
    const retry = await e.s.call('ceo', 'hai_open_mission', args);
    expect(retry).toMatchObject({ ok: true, replayed: true, data: { mission: { id: m.mission.id } } });
    const again = expectOk<MissionData>(retry);
    expect(again.contract.in_scope).toEqual(['analysis', 'research']);
  });

  it('invalid_args for a contract that is not finite or verifiable, and a default cap of two sessions', async () => {
    const e = env();
    const p = await bindProject(e.s);
    const open = (over: Record<string, unknown>) =>
      e.s.call('ceo', 'hai_open_mission', missionArgs(e.clock, p, over));
    for (const over of [
      { criteria: [] },
      { criteria: [{ id: 'a', description: 'd' }] },
      { expires_at: 'tomorrow' },
      { expires_at: new Date(e.clock.now().getTime() - 1).toISOString() },
      { in_scope: [] },
      { max_sessions: 0 },
      { name: 'Bad Name' },
    ]) {
      expect(errorCode(await open(over)), JSON.stringify(over)).toBe('invalid_args');
    }
    const m = expectOk<MissionData>(await open({ max_sessions: undefined }));
    expect(m.contract.max_sessions).toBe(2);
  });

  it('active_mission_exists, missing_project, idempotency_key_reuse', async () => {
    const e = env();
    const p = await bindProject(e.s);
    const open = (projectId: string, over: Record<string, unknown> = {}) =>
      e.s.call('ceo', 'hai_open_mission', missionArgs(e.clock, projectId, over));
    const name = uniq('m');
    expectOk(await open(p, { name }));
    expect(errorCode(await open(p))).toBe('active_mission_exists');
    expect(errorCode(await open(p, { name, goal: 'g2' }))).toBe('idempotency_key_reuse');
    expect(errorCode(await open('nope'))).toBe('missing_project');
  });
});

deniedTo('hai_open_mission', 'analyst', {
  name: 'm',
  title: 't',
  ...contract(movableClock()),
});
