// direction_approve: owner-gated (ack and approval mode); one approved direction per case, approving another
// supersedes it; audited with the owner's reason; already approved; unknown and deleted; 20 identical
// approvals and 20 approvals of different directions at once; no grant.
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { directions } from '../../../src/db/schema/review.ts';
import { approvalIdOf, forEachApprovalStack } from '../../contract/_approvals.ts';
import { ALL_STACKS, deleteCase, deniedTo, forEachStack, twentyAtOnce } from '../../harness/analysis.ts';
import { auditMark } from '../../harness/rows.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { type Approved, approve, caseWithArguments, propose } from './_directions.ts';

forEachStack('direction_approve', ALL_STACKS, (server) => {
  const approvedOf = (caseId: string) =>
    server()
      .db.db.select()
      .from(directions)
      .where(and(eq(directions.caseId, caseId), eq(directions.status, 'approved')));

  it('approves one direction per case: approving another supersedes it, each audited', async () => {
    const s = server();
    const { caseId } = await caseWithArguments(s.db.db);
    const a = await propose(s, caseId);
    const b = await propose(s, caseId, { outcome: 'full_acceptance' });
    const audit = await auditMark(s.db.db);
    const first = expectOk<Approved>(await approve(s, a.id, 'הכיוון הנכון'));
    expect(first).toMatchObject({
      created: true,
      superseded: null,
      direction: { id: a.id, status: 'approved', approved: { by: 'ceo', reason: 'הכיוון הנכון' } },
    });
    const second = await approve(s, b.id, 'שיניתי את דעתי');
    expect(second.message).toMatch(/superseded/);
    expect(expectOk<Approved>(second)).toMatchObject({
      direction: { id: b.id, status: 'approved' },
      superseded: { id: a.id, status: 'superseded', superseded_by: b.id },
    });
    expect((await approvedOf(caseId)).map((r) => r.id)).toEqual([b.id]);
    expect(await audit()).toEqual([
      expect.objectContaining({
        tool: 'direction_approve',
        idempotencyKey: a.id,
        outcome: 'ok',
        ownerAck: true,
        ownerReason: 'הכיוון הנכון',
      }),
      expect.objectContaining({
        tool: 'direction_approve',
        idempotencyKey: b.id,
        outcome: 'ok',
        ownerReason: 'שיניתי את דעתי',
      }),
    ]);
    // The list shows the history: one approved, the other superseded with who approved it.
    const listed = expectOk<{ items: Approved['direction'][] }>(
      await s.call('writer', 'direction_list', { case_id: caseId }),
    );
    expect(listed.items.map((d) => [d.id, d.status])).toEqual([
      [a.id, 'superseded'],
      [b.id, 'approved'],
    ]);
    expect(listed.items[0]?.approved).toMatchObject({ by: 'ceo', reason: 'הכיוון הנכון' });
    // Approving the approved one again changes nothing; the earlier one can be approved back.
    expect(expectOk<Approved>(await approve(s, b.id, 'שוב'))).toMatchObject({
      created: false,
      superseded: null,
    });
    expect(expectOk<Approved>(await approve(s, a.id, 'חזרה'))).toMatchObject({
      created: true,
      superseded: { id: b.id },
    });
    expect((await approvedOf(caseId)).map((r) => r.id)).toEqual([a.id]);
  });

  it('refuses without the owner’s acknowledgement and changes nothing (owner_gate_required)', async () => {
    const s = server();
    const { caseId } = await caseWithArguments(s.db.db);
    const a = await propose(s, caseId);
    for (const args of [
      { direction_id: a.id },
      { direction_id: a.id, owner_ack: true },
      { direction_id: a.id, reason: 'r' },
    ]) {
      expect(errorCode(await s.call('ceo', 'direction_approve', args)), JSON.stringify(args)).toBe(
        'owner_gate_required',
      );
    }
    expect(await approvedOf(caseId)).toEqual([]);
  });

  it('answers not_found for an unknown direction and for one of a deleted case', async () => {
    const s = server();
    const { caseId } = await caseWithArguments(s.db.db);
    const a = await propose(s, caseId);
    expect(errorCode(await approve(s, crypto.randomUUID()))).toBe('not_found');
    await deleteCase(s.db.db, caseId);
    expect(errorCode(await approve(s, a.id))).toBe('not_found');
    expect(await approvedOf(caseId)).toEqual([]);
  });

  it('20 identical approvals at once approve once; 20 approvals of different directions leave one approved', async () => {
    const s = server();
    const { caseId } = await caseWithArguments(s.db.db);
    const a = await propose(s, caseId);
    const answers = await twentyAtOnce(
      s,
      'direction_approve',
      { direction_id: a.id, owner_ack: true, reason: 'כן' },
      ['ceo'],
    );
    expect(answers.map((e) => expectOk<Approved>(e)).filter((d) => d.created)).toHaveLength(1);
    expect((await approvedOf(caseId)).map((r) => r.id)).toEqual([a.id]);
    const many = await Promise.all(Array.from({ length: 20 }, () => propose(s, caseId)));
    const all = await Promise.all(many.map((d) => approve(s, d.id)));
    for (const env of all) expectOk(env);
    expect(await approvedOf(caseId)).toHaveLength(1);
    const rows = await s.db.db.select().from(directions).where(eq(directions.caseId, caseId));
    expect(rows.filter((r) => r.status === 'superseded')).toHaveLength(20);
  }, 120_000);
});

forEachApprovalStack('direction_approve, approval mode', (env) => {
  it('goes through once the owner approves the very call in the console; approved_by names the owner', async () => {
    const { s, owner } = env();
    const { caseId } = await caseWithArguments(s.db.db);
    const a = await propose(s, caseId);
    const refused = await s.call('ceo', 'direction_approve', {
      direction_id: a.id,
      reason: 'נא לאשר את הכיוון',
    });
    const id = approvalIdOf(refused);
    expect(errorCode(await s.call('ceo', 'direction_approve', { direction_id: a.id, approval_id: id }))).toBe(
      'approval_pending',
    );
    await owner.decide(id, 'approve', 'מסכימה עם הנימוק');
    const done = expectOk<Approved>(
      await s.call('ceo', 'direction_approve', { direction_id: a.id, approval_id: id }),
    );
    expect(done.direction).toMatchObject({
      status: 'approved',
      approved: { by: 'dana', reason: 'מסכימה עם הנימוק' },
    });
  });
});

deniedTo('direction_approve', 'writer', () => ({
  direction_id: crypto.randomUUID(),
  owner_ack: true,
  reason: 'r',
}));
