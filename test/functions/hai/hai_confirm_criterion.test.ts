// hai_confirm_criterion: the owner confirms a free-text criterion from the console (called here through the
// kernel as the owner principal, and once through the missions page's form). Only that makes such a criterion
// count for closing; an agent's hai_proof is evidence, not the confirmation. Server-checked criteria stay the
// server's.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { hai_confirm_criterion } from '../../../functions/hai/hai_confirm_criterion.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { haiConfirmations } from '../../../src/db/schema/hai.ts';
import { seedCase } from '../../harness/documents.ts';
import { callAsOwner, signInOwner } from '../../harness/owner.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import {
  abandonMission,
  closeMission,
  criteria,
  DB_STACKS,
  forEachStack,
  lease,
  openMission,
  prove,
  recontract,
} from './_hai.ts';

type Confirmed = ToolData<typeof hai_confirm_criterion>;

forEachStack('hai_confirm_criterion', DB_STACKS, (env) => {
  const confirm = (mission_id: string, criterion_id: string, reason = 'קראתי את ההוכחה') =>
    callAsOwner(
      env().s,
      'dana',
      'hai_confirm_criterion',
      { mission_id, criterion_id, reason },
      { now: env().clock.now },
    );

  it('the owner’s confirmation, not the agent’s pass, makes a free-text criterion count', async () => {
    const e = env();
    const m = await openMission(e);
    const l = await lease(e, 'qa', m.mission.id);
    for (const c of criteria) {
      const proof = expectOk<{ awaits_owner: boolean }>(
        await prove(e, 'qa', l.lease_id, { criterion_id: c.id }),
      );
      expect(proof.awaits_owner).toBe(true);
    }
    const refused = await closeMission(e, m.mission.id, 'completed');
    expect(errorCode(refused)).toBe('review_required');
    expect(refused.ok ? null : refused.error.details?.awaiting_owner_confirmation).toEqual(
      criteria.map((c) => c.id),
    );
    const first = expectOk<Confirmed>(await confirm(m.mission.id, 'facts-mapped'));
    expect(first).toMatchObject({
      created: true,
      confirmation: { criterion_id: 'facts-mapped', contract_version: 1, confirmed_by: 'owner:dana' },
    });
    // Again: the same confirmation, nothing new; other words for the same criterion are another call.
    expect(expectOk<Confirmed>(await confirm(m.mission.id, 'facts-mapped')).confirmation).toEqual(
      first.confirmation,
    );
    expect(errorCode(await confirm(m.mission.id, 'facts-mapped', 'שוב'))).toBe('idempotency_key_reuse');
    const rows = await e.s.db.db
      .select()
      .from(haiConfirmations)
      .where(eq(haiConfirmations.missionId, m.mission.id));
    expect(rows).toHaveLength(1);
    const still = await closeMission(e, m.mission.id, 'completed');
    expect(still.ok ? null : still.error.details?.criteria_without_evidence).toEqual([
      { id: 'law-verified', verification: criteria[1]?.verification },
    ]);
    expectOk(await confirm(m.mission.id, 'law-verified'));
    expect(
      expectOk<{ mission: { state: string } }>(await closeMission(e, m.mission.id, 'completed')).mission
        .state,
    ).toBe('completed');
  });

  it('a recontract asks again: a confirmation counts for its contract version only', async () => {
    const e = env();
    const m = await openMission(e);
    expectOk(await confirm(m.mission.id, 'facts-mapped'));
    expectOk(await confirm(m.mission.id, 'law-verified'));
    await recontract(e, m.mission.id);
    const refused = await closeMission(e, m.mission.id, 'completed');
    expect(refused.ok ? null : refused.error.details?.contract_version).toBe(2);
    expect(refused.ok ? null : refused.error.details?.criteria_without_evidence).toHaveLength(2);
  });

  it('not_found, invalid_state, mission_not_active, invalid_args', async () => {
    const e = env();
    expect(errorCode(await confirm(crypto.randomUUID(), 'facts-mapped'))).toBe('not_found');
    const m = await openMission(e);
    expect(errorCode(await confirm(m.mission.id, 'no-such-criterion'))).toBe('not_found');
    expect(errorCode(await confirm(m.mission.id, 'facts-mapped', '  '))).toBe('invalid_args');
    const caseId = await seedCase(e.s.db.db);
    const checked = await openMission(e, undefined, {
      criteria: [
        {
          id: 'valid',
          description: 'Valid',
          verification: 'the server',
          check: { kind: 'draft_valid', case_id: caseId },
        },
      ],
    });
    expect(errorCode(await confirm(checked.mission.id, 'valid'))).toBe('invalid_state');
    await abandonMission(e, m.mission.id);
    expect(errorCode(await confirm(m.mission.id, 'facts-mapped'))).toBe('mission_not_active');
  });

  it('no agent may call it: the owner’s, in the console', async () => {
    const e = env();
    const m = await openMission(e);
    for (const agent of ['ceo', 'qa'] as const) {
      expect(
        errorCode(
          await e.s.call(agent, 'hai_confirm_criterion', {
            mission_id: m.mission.id,
            criterion_id: 'facts-mapped',
            reason: 'I say so',
          }),
        ),
      ).toBe('tool_not_granted');
    }
  });

  it('the missions page confirms through its form, with the CSRF token; without it nothing changes', async () => {
    const e = env();
    const m = await openMission(e);
    const owner = await signInOwner(e.s, 'dana', e.clock.now());
    const page = await owner.get(`/console/missions/${m.mission.id}`);
    const path = `/console/missions/${m.mission.id}/criteria/facts-mapped/confirm`;
    expect(await page.text()).toContain(`action="${path}"`);
    expect((await owner.post(path, { reason: 'forged' }, { csrf: null })).status).toBe(403);
    const cross = await e.s.fetch(path, {
      method: 'POST',
      headers: {
        cookie: owner.cookie,
        origin: 'https://evil.example',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ reason: 'forged', csrf: owner.csrf }),
      redirect: 'manual',
    });
    expect(cross.status).toBe(403);
    expect(errorCode(await closeMission(e, m.mission.id, 'completed'))).toBe('review_required');
    const res = await owner.post(path, { reason: 'ראיתי את המיפוי' });
    expect([res.status, res.headers.get('location')]).toEqual([
      303,
      `/console/missions/${m.mission.id}?done=confirmed`,
    ]);
    const after = await (await owner.get(`/console/missions/${m.mission.id}`)).text();
    expect(after).toContain('ראיתי את המיפוי');
    expect(after).not.toContain(`action="${path}"`);
  });
});
