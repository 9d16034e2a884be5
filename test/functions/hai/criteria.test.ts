// Mission criteria the server checks itself (draft_valid, exported, final_ingested on a case): hai_proof runs
// the check and records the server's result whatever the agent says; hai_close_mission "completed" runs every
// check again and refuses with review_required when one fails now; a project bound to a case shows its stage.
import { expect, it } from 'vitest';
import type { hai_status } from '../../../functions/hai/hai_status.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { draftExports, finalVersions } from '../../../src/db/schema/drafting.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { cleanBlocks, seedScenario, setOutcome, writeBlocks } from '../draft/_validate.ts';
import {
  closeMission,
  confirmCriteria,
  contract,
  DB_STACKS,
  DEVICE,
  forEachStack,
  gate,
  type HaiEnv,
  lease,
  type MissionData,
  uniq,
} from './_hai.ts';

type Proof = { proof: { result: string; evidence: string | null } };

forEachStack('server-checked criteria', DB_STACKS, (env) => {
  /** A project bound on DEVICE to the case, and a mission on it whose criteria are `criteria`. */
  async function missionOn(
    e: HaiEnv,
    caseId: string,
    criteria: unknown[],
  ): Promise<{ projectId: string; mission: MissionData }> {
    const projectId = uniq('proj');
    expectOk(
      await e.s.call('ceo', 'hai_bind_project', {
        project_id: projectId,
        device_id: DEVICE,
        mount_path: `/p/${projectId}`,
        case_id: caseId,
        ...gate,
      }),
    );
    const mission = expectOk<MissionData>(
      await e.s.call('ceo', 'hai_open_mission', {
        name: uniq('m'),
        title: 'החלטה',
        project_id: projectId,
        ...contract(e.clock, { criteria, in_scope: ['drafting'], out_of_scope: [] }),
      }),
    );
    return { projectId, mission };
  }
  const check = (id: string, kind: string, caseId: string) => ({
    id,
    description: `${kind} holds`,
    verification: 'the server checks it',
    check: { kind, case_id: caseId },
  });

  it('runs draft_valid and exported at proof and again at close; a later block makes them fail again', async () => {
    const e = env();
    const sc = await seedScenario(e.s);
    const { projectId, mission } = await missionOn(e, sc.caseId, [
      check('draft-valid', 'draft_valid', sc.caseId),
      check('exported', 'exported', sc.caseId),
      { id: 'chair-read', description: 'The chair read it', verification: 'the ceo asks' },
    ]);
    expect(mission.contract.criteria[0]).toMatchObject({
      check: { kind: 'draft_valid', case_id: sc.caseId },
    });
    const status = expectOk<ToolData<typeof hai_status>>(
      await e.s.call('ceo', 'hai_status', { project_id: projectId }),
    );
    expect(status.projects[0]?.case).toEqual({
      case_id: sc.caseId,
      case_number: sc.caseNumber,
      stage: 'analysis',
    });

    const l = await lease(e, 'qa', mission.mission.id);
    const proof = (criterion_id: string, extra: Record<string, unknown> = {}) =>
      e.s.call('qa', 'hai_proof', {
        lease_id: l.lease_id,
        criterion_id,
        checked: `checked ${criterion_id}`,
        device_id: DEVICE,
        ...extra,
      });
    // The agent says pass; the server finds no validation and records fail.
    const early = expectOk<Proof>(await proof('draft-valid', { result: 'pass' }));
    expect(early.proof).toMatchObject({
      result: 'fail',
      evidence: expect.stringMatching(/^draft_valid: .*never validated/),
    });
    expect(errorCode(await proof('chair-read'))).toBe('invalid_args');
    expectOk(await proof('chair-read', { result: 'pass' }));
    // A free-text criterion counts on the owner's word in the console, not on the agent's pass.
    await confirmCriteria(e, mission.mission.id, ['chair-read']);

    await writeBlocks(e.s, sc.caseId, cleanBlocks(sc));
    await setOutcome(e.s, sc.caseId);
    expectOk(await e.s.call('qa', 'draft_validate', { case_id: sc.caseId }));
    expect(expectOk<Proof>(await proof('draft-valid', { checked: 'again' })).proof.result).toBe('pass');
    const refused = await closeMission(e, mission.mission.id, 'completed');
    expect(errorCode(refused)).toBe('review_required');
    expect(refused.ok ? null : refused.error.details?.failed_checks).toEqual([
      expect.objectContaining({
        id: 'exported',
        kind: 'exported',
        found: expect.stringMatching(/never exported/),
      }),
    ]);

    const exportId = crypto.randomUUID();
    await e.s.db.db.insert(draftExports).values({
      id: exportId,
      caseId: sc.caseId,
      blocksHash: exportId,
      sha256: exportId,
      byteSize: 1,
      content: new Uint8Array([1]),
      blocks: [],
      createdBy: 'writer',
      createdAt: e.clock.now(),
    });
    expect(expectOk<Proof>(await proof('exported')).proof.result).toBe('pass');
    // A block written after the validation and the export: both checks fail now, whatever was proven.
    e.clock.advance(1000);
    await writeBlocks(e.s, sc.caseId, [{ kind: 'costs', text: 'אין צו להוצאות.' }]);
    const stale = await closeMission(e, mission.mission.id, 'completed');
    expect(stale.ok ? null : stale.error.details?.failed_checks).toEqual([
      expect.objectContaining({
        id: 'draft-valid',
        found: expect.stringMatching(/after the last validation/),
      }),
      expect.objectContaining({ id: 'exported', found: expect.stringMatching(/after the last export/) }),
    ]);
    e.clock.advance(1000);
    expectOk(await e.s.call('qa', 'draft_validate', { case_id: sc.caseId }));
    const again = crypto.randomUUID();
    await e.s.db.db.insert(draftExports).values({
      id: again,
      caseId: sc.caseId,
      blocksHash: again,
      sha256: again,
      byteSize: 1,
      content: new Uint8Array([1]),
      blocks: [],
      createdBy: 'writer',
      createdAt: e.clock.now(),
    });
    expect(
      expectOk<{ mission: { state: string } }>(await closeMission(e, mission.mission.id, 'completed')).mission
        .state,
    ).toBe('completed');
  });

  it('final_ingested passes once the final version is taken in; a deleted case fails its checks', async () => {
    const e = env();
    const sc = await seedScenario(e.s);
    const { mission } = await missionOn(e, sc.caseId, [check('final', 'final_ingested', sc.caseId)]);
    const refused = await closeMission(e, mission.mission.id, 'completed');
    expect(refused.ok ? null : refused.error.details?.failed_checks).toEqual([
      expect.objectContaining({ id: 'final', found: expect.stringMatching(/no final version/) }),
    ]);
    const id = crypto.randomUUID();
    await e.s.db.db
      .insert(finalVersions)
      .values({ id, caseId: sc.caseId, sha256: id, format: 'text', text: 'x', createdBy: 'ceo' });
    expectOk(await closeMission(e, mission.mission.id, 'completed'));

    const other = await seedScenario(e.s);
    const m2 = await missionOn(e, other.caseId, [check('final', 'final_ingested', other.caseId)]);
    expectOk(await e.s.call('ceo', 'case_delete', { case_id: other.caseId, ...gate }));
    const gone = await closeMission(e, m2.mission.mission.id, 'completed');
    expect(gone.ok ? null : gone.error.details?.failed_checks).toEqual([
      expect.objectContaining({ found: expect.stringMatching(/No case/) }),
    ]);
  });

  it('refuses to bind a project to an unknown case', async () => {
    const e = env();
    const res = await e.s.call('ceo', 'hai_bind_project', {
      project_id: uniq('p'),
      device_id: DEVICE,
      mount_path: '/x',
      case_id: crypto.randomUUID(),
      ...gate,
    });
    expect(errorCode(res)).toBe('not_found');
  });
});
