// approval_review: the owner's decision on an approval request (approval mode), called through the kernel as
// the owner principal, as the console does. The console's forms around it are in test/console/.
import { expect, it } from 'vitest';
import type { approval_review } from '../../../functions/approval/approval_review.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import {
  approvalIdOf,
  approvalRow,
  auditFor,
  forEachApprovalStack,
  uniqueNote,
} from '../../contract/_approvals.ts';
import { callAsOwner } from '../../harness/owner.ts';
import { errorCode, expectOk } from '../../harness/server.ts';

type Review = ToolData<typeof approval_review>;

forEachApprovalStack('approval_review', (env) => {
  const request = async (reason = 'please') =>
    approvalIdOf(await env().s.call('ceo', 'fixture_note_write', { note: uniqueNote('review'), reason }));
  const review = (args: Record<string, unknown>, owner = 'noa') =>
    callAsOwner(env().s, owner, 'approval_review', args, { now: env().clock.now });

  it('approves: the request is approved by this owner, for 24 hours, and audited as the owner', async () => {
    const id = await request();
    const data = expectOk<Review>(
      await review({ approval_id: id, decision: 'approve', reason: '  מאושר  ' }),
    );
    expect(data).toMatchObject({
      approval_id: id,
      tool: 'fixture_note_write',
      agent: 'ceo',
      state: 'approved',
      decided_by: 'noa',
      created: true,
    });
    expect(Date.parse(data.expires_at ?? '') - Date.parse(data.decided_at ?? '')).toBe(24 * 3600_000);
    expect(await approvalRow(env().s, id)).toMatchObject({ decisionReason: 'מאושר', decidedByName: 'noa' });
    const audit = await auditFor(env().s, id);
    expect(audit.at(-1)).toMatchObject({
      agent: 'owner:noa',
      tool: 'approval_review',
      outcome: 'ok',
      idempotencyKey: id,
    });
  });

  it('rejects: no expiry, the reason kept', async () => {
    const id = await request();
    const data = expectOk<Review>(await review({ approval_id: id, decision: 'reject', reason: 'לא' }));
    expect(data).toMatchObject({ state: 'rejected', expires_at: null, created: true });
  });

  it('a decision is final: the same one again is created: false, another one is invalid_state', async () => {
    const id = await request();
    expectOk(await review({ approval_id: id, decision: 'approve', reason: 'כן' }));
    expect(
      expectOk<Review>(await review({ approval_id: id, decision: 'approve', reason: 'כן' })).created,
    ).toBe(false);
    const other = await review({ approval_id: id, decision: 'reject', reason: 'בעצם לא' });
    expect(other).toMatchObject({
      ok: false,
      error: { code: 'invalid_state', details: { state: 'approved', decided_by: 'noa' } },
    });
    // Another owner cannot re-decide it either.
    expect(errorCode(await review({ approval_id: id, decision: 'approve', reason: 'גם אני' }, 'avi'))).toBe(
      'invalid_state',
    );
  });

  it('refuses an unknown request (not_found) and a decision without a reason (invalid_args)', async () => {
    expect(
      errorCode(await review({ approval_id: crypto.randomUUID(), decision: 'approve', reason: 'x' })),
    ).toBe('not_found');
    const id = await request();
    expect(errorCode(await review({ approval_id: id, decision: 'approve', reason: '   ' }))).toBe(
      'invalid_args',
    );
    expect(errorCode(await review({ approval_id: id, decision: 'maybe', reason: 'x' }))).toBe('invalid_args');
    expect(await approvalRow(env().s, id)).toMatchObject({ state: 'pending' });
  });

  it('no agent holds it (tool_not_granted), and nothing is decided', async () => {
    const id = await request();
    for (const agent of ['ceo', 'analyst', 'qa'] as const) {
      const refused = await env().s.call(agent, 'approval_review', {
        approval_id: id,
        decision: 'approve',
        reason: 'x',
      });
      expect(errorCode(refused)).toBe('tool_not_granted');
    }
    expect(await approvalRow(env().s, id)).toMatchObject({ state: 'pending' });
  });

  it('twenty concurrent identical decisions decide once', async () => {
    const id = await request();
    const all = await Promise.all(
      Array.from({ length: 20 }, () => review({ approval_id: id, decision: 'approve', reason: 'פעם אחת' })),
    );
    const created = all.filter((e) => e.ok && (e.data as Review).created);
    expect(created).toHaveLength(1);
    for (const e of all) if (!e.ok) expect(errorCode(e)).toBe('in_progress');
    expect(await approvalRow(env().s, id)).toMatchObject({ state: 'approved', decisionReason: 'פעם אחת' });
  });
});
