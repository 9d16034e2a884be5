// Missions per case: hai_open_mission with case_id alone (no project, device or mount path), one active
// mission per case, and missions of different cases active at once; with GOVERNANCE_ENFORCE on, two case
// missions run side by side, each case's changes going through its own mission's leases. Off (the embedded
// default), nothing asks for a lease.
import { expect, it } from 'vitest';
import {
  abandonMission,
  contract,
  DB_STACKS,
  forEachStack,
  type HaiEnv,
  type MissionData,
  uniq,
} from '../functions/hai/_hai.ts';
import { seedCase } from '../harness/documents.ts';
import { errorCode, expectOk } from '../harness/server.ts';

const openFor = (e: HaiEnv, caseId: string, over: Record<string, unknown> = {}) =>
  e.s.call('ceo', 'hai_open_mission', {
    name: uniq('case'),
    title: 'ערר — ניתוח וכתיבה',
    case_id: caseId,
    ...contract(e.clock, { in_scope: ['analysis', 'drafting'], out_of_scope: [] }),
    ...over,
  });

const lease = async (e: HaiEnv, agent: 'analyst' | 'writer' | 'ceo', missionId: string) =>
  expectOk<{ lease: { lease_id: string } }>(
    await e.s.call(agent, 'hai_authorize_session', { mission_id: missionId, contract_version: 1 }),
  ).lease.lease_id;

const feedback = (e: HaiEnv, caseId: string, text: string) =>
  e.s.call('ceo', 'feedback_record', { case_id: caseId, kind: 'style', text });

forEachStack(
  'case missions under enforcement',
  DB_STACKS,
  (env) => {
    it('opens a mission per case in one call; two cases’ missions are active at once', async () => {
      const e = env();
      const [a, b] = [await seedCase(e.s.db.db, 'ערר א'), await seedCase(e.s.db.db, 'ערר ב')];
      const ma = expectOk<MissionData>(await openFor(e, a));
      const mb = expectOk<MissionData>(await openFor(e, b));
      expect(ma.mission).toMatchObject({ case_id: a, project_id: null, state: 'active' });
      expect(mb.mission).toMatchObject({ case_id: b, project_id: null, state: 'active' });
      // One active mission per case.
      const again = await openFor(e, a);
      expect(errorCode(again)).toBe('active_mission_exists');
      expect(again.ok ? null : again.error.details).toMatchObject({
        case_id: a,
        active_mission_id: ma.mission.id,
      });
      // A lease needs no device for a case mission.
      await lease(e, 'ceo', ma.mission.id);
      await lease(e, 'ceo', mb.mission.id);
      // Both run: each case's changes go through its own mission, at the same time.
      const [ra, rb] = await Promise.all([feedback(e, a, 'קצר יותר'), feedback(e, b, 'ברור יותר')]);
      expectOk(ra);
      expectOk(rb);
      // After closing a case's mission, a new one can be opened for it.
      await abandonMission(e, ma.mission.id);
      expectOk(await openFor(e, a));
    });

    it('a lease on one case’s mission does not open another case', async () => {
      const e = env();
      const [a, b] = [await seedCase(e.s.db.db, 'ערר ג'), await seedCase(e.s.db.db, 'ערר ד')];
      const ma = expectOk<MissionData>(await openFor(e, a));
      const mb = expectOk<MissionData>(await openFor(e, b));
      await lease(e, 'ceo', ma.mission.id);
      expectOk(await feedback(e, a, 'מנוסח היטב'));
      const refused = await feedback(e, b, 'לא כאן');
      expect(errorCode(refused)).toBe('lease_required');
      expect(refused.ok ? null : refused.error.details).toMatchObject({
        case_id: b,
        mission_id: mb.mission.id,
        activity: 'drafting:feedback_record',
        agent: 'ceo',
      });
      expect(refused.ok ? null : refused.error.hint).toContain('hai_authorize_session');
    });

    it('an expired case mission refuses its case’s changes (mission_not_active, naming the recontract)', async () => {
      const e = env();
      const a = await seedCase(e.s.db.db, 'ערר ה');
      const ma = expectOk<MissionData>(
        await openFor(e, a, { expires_at: new Date(e.clock.now().getTime() + 3_600_000).toISOString() }),
      );
      await lease(e, 'ceo', ma.mission.id);
      e.clock.advance(2 * 3_600_000);
      const refused = await feedback(e, a, 'מאוחר');
      expect(errorCode(refused)).toBe('mission_not_active');
      expect(refused.ok ? null : refused.error.hint).toContain('hai_recontract');
    });

    it('invalid_args for a project and a case at once; not_found for an unknown case', async () => {
      const e = env();
      const a = await seedCase(e.s.db.db, 'ערר ו');
      expect(errorCode(await openFor(e, a, { project_id: 'some-project' }))).toBe('invalid_args');
      expect(errorCode(await openFor(e, crypto.randomUUID()))).toBe('not_found');
    });
  },
  { env: { GOVERNANCE_ENFORCE: 'on' } },
);

forEachStack('case missions with enforcement off (the embedded default)', DB_STACKS.slice(0, 1), (env) => {
  it('a change to a case needs no lease, with or without a mission', async () => {
    const e = env();
    const a = await seedCase(e.s.db.db, 'ערר ז');
    expectOk(await feedback(e, a, 'בלי משימה'));
    expectOk(await openFor(e, a));
    expectOk(await feedback(e, a, 'עם משימה, בלי הרשאה'));
  });
});
