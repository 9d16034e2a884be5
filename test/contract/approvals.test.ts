// OWNER_GATE=approval, the path an owner-gated call takes (docs/contract.md "Grants and gates"): the refusal
// leaves one approval request; the owner decides it in the console; the agent's repeat with approval_id goes
// through once (repeated again, it replays that result: approval_replay.test.ts); rejected and expired approvals are refused; the audit log links request, decision and call.
import { expect, it } from 'vitest';
import type { case_delete } from '../../functions/case/case_delete.ts';
import { APPROVAL_TTL_MS } from '../../src/contract/approvals.ts';
import type { ToolData } from '../../src/contract/define.ts';
import type { Envelope } from '../../src/contract/envelope.ts';
import { signInOwner } from '../harness/owner.ts';
import { caseRow } from '../harness/rows.ts';
import { errorCode, expectOk } from '../harness/server.ts';
import {
  approvalIdOf,
  approvalRow,
  auditFor,
  effects,
  type fixture_note_write,
  forEachApprovalStack,
  uniqueNote,
} from './_approvals.ts';

type Written = ToolData<typeof fixture_note_write>;

forEachApprovalStack('owner gate, approval mode', (env) => {
  it('a refused call leaves one approval request with the call’s tool, agent, arguments and reason', async () => {
    const { s } = env();
    const note = uniqueNote('request');
    const refused = await s.call('ceo', 'fixture_note_write', {
      note,
      level: 3,
      reason: 'צריך לרשום את ההערה',
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'owner_gate_required' } });
    const id = approvalIdOf(refused);
    expect(refused.ok ? null : refused.error.details).toEqual({
      approval_id: id,
      state: 'pending',
      console_url: `${s.url}/console/approvals/${id}`,
    });
    // Repeating the refused call (even with another reason or argument order) finds the same request.
    const again = await s.call('ceo', 'fixture_note_write', { level: 3, note, reason: 'שוב' });
    expect(approvalIdOf(again)).toBe(id);
    const row = await approvalRow(s, id);
    expect(row).toMatchObject({
      tool: 'fixture_note_write',
      agent: 'ceo',
      args: { note, level: 3 },
      agentReason: 'צריך לרשום את ההערה',
      state: 'pending',
      decidedBy: null,
    });
    expect(row?.argsSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(effects.get(note)).toBeUndefined();
    // Other arguments are another call: another request.
    const other = await s.call('ceo', 'fixture_note_write', { note, level: 4, reason: 'אחר' });
    expect(approvalIdOf(other)).not.toBe(id);
    // Over the plain JSON route too, with the 403 of the code.
    const json = await s.callJson('ceo', 'fixture_note_write', { note, level: 3, reason: 'x' });
    expect(json.status).toBe(403);
    expect(approvalIdOf(json.body)).toBe(id);
  });

  it('the console address in a refusal is the one the call came to', async () => {
    const { s } = env();
    const note = uniqueNote('console-address');
    const refusedAt = async (origin: string) => {
      const res = await s.fetch(`${origin}/v1/tools/fixture_note_write`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${s.tokens.ceo}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ note, reason: 'כתובת המסוף' }),
      });
      return (await res.json()) as Envelope;
    };
    // In process, any address reaches the app; over a socket, only the one it listens on.
    const origins = s.url.startsWith('http://127.0.0.1:') ? [s.url] : [s.url, 'http://chambers.example:8443'];
    for (const origin of [...origins, ...origins]) {
      const refused = await refusedAt(origin);
      const id = approvalIdOf(refused);
      expect(refused.ok ? null : refused.error.details?.console_url).toBe(
        `${origin}/console/approvals/${id}`,
      );
    }
  });

  it('twenty concurrent identical refusals leave one request', async () => {
    const { s } = env();
    const note = uniqueNote('concurrent-request');
    const all = await Promise.all(
      Array.from({ length: 20 }, () => s.call('ceo', 'fixture_note_write', { note, reason: 'בבקשה' })),
    );
    expect(new Set(all.map(approvalIdOf)).size).toBe(1);
  });

  it('a call without a reason is refused and leaves no request: the owner must know why', async () => {
    const { s } = env();
    const refused = await s.call('ceo', 'fixture_note_write', { note: uniqueNote('no-reason') });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'owner_gate_required', details: { missing: ['reason'] } },
    });
  });

  it('approved in the console, the repeat goes through once; a second repeat replays its result', async () => {
    const { s, owner } = env();
    const note = uniqueNote('approve');
    const id = approvalIdOf(await s.call('ceo', 'fixture_note_write', { note, reason: 'לרשום' }));
    const pending = await s.call('ceo', 'fixture_note_write', { note, approval_id: id });
    expect(pending).toMatchObject({ ok: false, error: { code: 'approval_pending' } });
    expect(pending.ok ? null : pending.error.details?.console_url).toBe(`${s.url}/console/approvals/${id}`);

    await owner.decide(id, 'approve', 'מאושר, פעם אחת');
    expect(await approvalRow(s, id)).toMatchObject({ state: 'approved', decidedByName: 'dana' });
    // A refused repeat without the id now says it was approved, and how to use it.
    const hint = await s.call('ceo', 'fixture_note_write', { note, reason: 'again' });
    expect(hint).toMatchObject({
      error: { code: 'owner_gate_required', details: { approval_id: id, state: 'approved' } },
    });

    const first = await s.call('ceo', 'fixture_note_write', { note, approval_id: id });
    const done = expectOk<Written>(first);
    // The tool sees the owner's reason and name as the gate's.
    expect(done).toEqual({ note, runs: 1, reason: 'מאושר, פעם אחת', owner: 'dana' });
    const again = await s.call('ceo', 'fixture_note_write', { note, approval_id: id });
    expect(again).toEqual({ ...first, replayed: true });
    expect(effects.get(note)).toBe(1);

    // The audit log links the request, the owner's decision and the call that used the approval.
    const audit = await auditFor(s, id);
    expect(audit.map((r) => [r.agent, r.tool, r.outcome, r.errorCode])).toEqual([
      ['ceo', 'fixture_note_write', 'error', 'owner_gate_required'],
      ['ceo', 'fixture_note_write', 'error', 'approval_pending'],
      ['owner:dana', 'approval_review', 'ok', null],
      ['ceo', 'fixture_note_write', 'error', 'owner_gate_required'],
      ['ceo', 'fixture_note_write', 'ok', null],
      ['ceo', 'fixture_note_write', 'replayed', null],
    ]);
    expect(audit[2]).toMatchObject({ idempotencyKey: id });
    expect(audit[4]).toMatchObject({ ownerAck: true, ownerReason: 'מאושר, פעם אחת' });
    const row = await approvalRow(s, id);
    expect(row).toMatchObject({ state: 'used', decisionReason: 'מאושר, פעם אחת' });
    expect(row?.usedRequestId).toBe(audit[4]?.requestId);
  });

  it('rejected in the console: the repeat is approval_rejected with the owner’s reason, and nothing runs', async () => {
    const { s, owner } = env();
    const note = uniqueNote('reject');
    const id = approvalIdOf(await s.call('ceo', 'fixture_note_write', { note, reason: 'לרשום' }));
    await owner.decide(id, 'reject', 'לא עכשיו');
    const refused = await s.call('ceo', 'fixture_note_write', { note, approval_id: id });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'approval_rejected',
        details: { approval_id: id, decision_reason: 'לא עכשיו', decided_by: 'dana' },
      },
    });
    expect(effects.get(note)).toBeUndefined();
    // A decision is final: approving afterwards is refused, and the owner's page says so.
    const late = await owner.post(`/console/approvals/${id}`, { decision: 'approve', reason: 'התחרטתי' });
    expect(late.status).toBe(409);
    // Asking again makes a new request (the rejected one is closed).
    const anew = approvalIdOf(await s.call('ceo', 'fixture_note_write', { note, reason: 'שוב, עם נימוק' }));
    expect(anew).not.toBe(id);
  });

  it('an approval not used within its lifetime expires; asking again makes a new request', async () => {
    const e = env();
    const { s, owner, clock } = e;
    const note = uniqueNote('expire');
    const id = approvalIdOf(await s.call('ceo', 'fixture_note_write', { note, reason: 'לרשום' }));
    await owner.decide(id, 'approve', 'מאושר');
    clock.advance(APPROVAL_TTL_MS + 1000);
    const expired = await s.call('ceo', 'fixture_note_write', { note, approval_id: id });
    expect(expired).toMatchObject({
      ok: false,
      error: { code: 'approval_expired', details: { approval_id: id } },
    });
    expect(effects.get(note)).toBeUndefined();
    const anew = approvalIdOf(await s.call('ceo', 'fixture_note_write', { note, reason: 'שוב' }));
    expect(anew).not.toBe(id);
    // The owner's session (12 hours) ended with the day that passed: sign in again for the next tests.
    expect((await owner.get('/console/approvals')).status).toBe(401);
    e.owner = await signInOwner(s, 'dana', clock.now());
  });

  it('an approved call that fails after the gate keeps its approval: the owner approved a call that did not happen', async () => {
    const { s, owner } = env();
    const note = uniqueNote('fail');
    const id = approvalIdOf(await s.call('ceo', 'fixture_note_write', { note, reason: 'לרשום' }));
    await owner.decide(id, 'approve', 'מאושר');
    expect(errorCode(await s.call('ceo', 'fixture_note_write', { note, approval_id: id }))).toBe('internal');
    expect(await approvalRow(s, id)).toMatchObject({ state: 'approved', usedAt: null, usedRequestId: null });
  });

  it('a conditional gate that does not apply needs no approval', async () => {
    const { s } = env();
    const note = uniqueNote('ungated');
    const data = expectOk<Written>(
      await s.call('ceo', 'fixture_note_write', { note, gated: false, reason: 'סגירה' }),
    );
    expect(data).toMatchObject({ runs: 1, reason: 'סגירה', owner: null });
  });

  it('case_delete: approved in the console, the case is deleted with the owner’s reason', async () => {
    const { s, owner } = env();
    const c = expectOk<{ case: { id: string } }>(
      await s.call('ceo', 'case_create', { case_number: `ערר ${uniqueNote('del')}`, title: 'נפתח בטעות' }),
    ).case;
    const id = approvalIdOf(await s.call('ceo', 'case_delete', { case_id: c.id, reason: 'נפתח בטעות' }));
    expect((await caseRow(s.db.db, c.id))?.deletedAt).toBeNull();
    await owner.decide(id, 'approve', 'היו״ר אישר את המחיקה');
    const done = expectOk<ToolData<typeof case_delete>>(
      await s.call('ceo', 'case_delete', { case_id: c.id, approval_id: id }),
    );
    expect(done.case_id).toBe(c.id);
    expect(await caseRow(s.db.db, c.id)).toMatchObject({
      deletedBy: 'ceo',
      deleteReason: 'היו״ר אישר את המחיקה',
    });
  });
});
