// A gated call repeated with its used approval_id (docs/contract.md "Grants and gates"): the same agent with the
// same arguments gets the first result again (`replayed: true`) and the tool does not run; other arguments, and
// another agent, are refused as before; a repeat while the first call runs is told to wait, not to ask the owner.
import { expect, it } from 'vitest';
import { idempotencyKvKey } from '../../src/contract/idempotency.ts';
import { eq } from '../../src/db/orm.ts';
import { finalVersions } from '../../src/db/schema/drafting.ts';
import { kvEntries } from '../../src/db/schema/kv_entries.ts';
import { ownerApprovals } from '../../src/db/schema/owners.ts';
import { seedCase } from '../harness/documents.ts';
import { errorCode, expectOk } from '../harness/server.ts';
import {
  approvalIdOf,
  approvalRow,
  auditFor,
  effects,
  forEachApprovalStack,
  uniqueNote,
} from './_approvals.ts';

forEachApprovalStack('a used approval replays the same call', (env) => {
  /** An approved request for the ceo's `note` (with `level` when given), ready to use. */
  const approved = async (what: string, level?: number) => {
    const { s, owner } = env();
    const note = uniqueNote(what);
    const args = level === undefined ? { note } : { note, level };
    const id = approvalIdOf(await s.call('ceo', 'fixture_note_write', { ...args, reason: 'please' }));
    await owner.decide(id, 'approve', 'go ahead');
    return { note, args, id };
  };

  it('the same arguments: the first result again, over MCP and JSON, without a second effect', async () => {
    const { s } = env();
    const { note, args, id } = await approved('same', 3);
    const first = await s.call('ceo', 'fixture_note_write', { ...args, approval_id: id });
    expect(expectOk(first)).toEqual({ note, runs: 1, reason: 'go ahead', owner: 'dana' });
    expect(first).not.toHaveProperty('replayed');
    // Key order and the gate's own reason do not make it another call.
    const again = await s.call('ceo', 'fixture_note_write', {
      level: 3,
      note,
      approval_id: id,
      reason: 'retry',
    });
    expect(again).toEqual({ ...first, replayed: true });
    const json = await s.callJson('ceo', 'fixture_note_write', { ...args, approval_id: id });
    expect(json).toEqual({ status: 200, body: { ...first, replayed: true } });
    expect(effects.get(note)).toBe(1);
    // The result is kept with the approval, so the replay does not hang on the idempotency store's copy.
    await s.kv.delete(idempotencyKvKey({ agent: 'ceo', tool: 'fixture_note_write', key: note }));
    expect(await s.call('ceo', 'fixture_note_write', { ...args, approval_id: id })).toEqual({
      ...first,
      replayed: true,
    });
    expect(effects.get(note)).toBe(1);
    const row = await approvalRow(s, id);
    expect(row).toMatchObject({ state: 'used', result: first });
    const audit = await auditFor(s, id);
    expect(audit.map((r) => r.outcome)).toEqual(['error', 'ok', 'ok', 'replayed', 'replayed', 'replayed']);
    expect(audit.at(-1)).toMatchObject({
      agent: 'ceo',
      ownerAck: true,
      ownerReason: 'go ahead',
      errorCode: null,
    });
  });

  it('final_version_ingest retried with its used approval: the first answer again, one final version', async () => {
    const { s, owner } = env();
    const caseId = await seedCase(s.db.db);
    const args = { case_id: caseId, text: 'ועדת הערר\n\n1. הערר נדחה.' };
    const id = approvalIdOf(await s.call('ceo', 'final_version_ingest', { ...args, reason: 'נחתם' }));
    await owner.decide(id, 'approve', 'זו הגרסה החתומה');
    const first = await s.call('ceo', 'final_version_ingest', { ...args, approval_id: id });
    expect(expectOk(first)).toMatchObject({ created: true, format: 'text' });
    // Not the key-value copy: the answer comes from the approval, and it is the first one (created: true).
    await s.db.db.delete(kvEntries);
    expect(await s.call('ceo', 'final_version_ingest', { ...args, approval_id: id })).toEqual({
      ...first,
      replayed: true,
    });
    expect(await s.db.db.select().from(finalVersions).where(eq(finalVersions.caseId, caseId))).toHaveLength(
      1,
    );
    const other = await s.call('ceo', 'final_version_ingest', { ...args, text: 'אחר', approval_id: id });
    expect(errorCode(other)).toBe('approval_mismatch');
  });

  it('other arguments or another tool with a used approval: approval_mismatch, and nothing runs', async () => {
    const { s } = env();
    const { note, args, id } = await approved('other-args', 1);
    expectOk(await s.call('ceo', 'fixture_note_write', { ...args, approval_id: id }));
    for (const other of [{ note, level: 2 }, { note }, { note: `${note}-x`, level: 1 }]) {
      expect(await s.call('ceo', 'fixture_note_write', { ...other, approval_id: id })).toMatchObject({
        ok: false,
        error: { code: 'approval_mismatch', details: { approval_id: id, approved_arguments: args } },
      });
    }
    const c = expectOk<{ case: { id: string } }>(
      await s.call('ceo', 'case_create', { case_number: `ערר ${uniqueNote('rp')}`, title: 'נשאר' }),
    ).case;
    expect(errorCode(await s.call('ceo', 'case_delete', { case_id: c.id, approval_id: id }))).toBe(
      'approval_mismatch',
    );
    expect(effects.get(note)).toBe(1);
    expect(effects.get(`${note}-x`)).toBeUndefined();
  });

  it('another agent with the used approval: not_found, and it learns nothing of the result', async () => {
    const { s } = env();
    const { note, args, id } = await approved('other-agent');
    expectOk(await s.call('ceo', 'fixture_note_write', { ...args, approval_id: id }));
    const refused = await s.call('analyst', 'fixture_note_write', { ...args, approval_id: id });
    expect(refused).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(JSON.stringify(refused)).not.toContain('"runs"');
    expect(effects.get(note)).toBe(1);
  });

  it('a call that failed after the gate keeps nothing to replay: the approval is given back', async () => {
    const { s } = env();
    const { note, args, id } = await approved('fail');
    expect(errorCode(await s.call('ceo', 'fixture_note_write', { ...args, approval_id: id }))).toBe(
      'internal',
    );
    expect(await approvalRow(s, id)).toMatchObject({ state: 'approved', result: null, usedAt: null });
    // The repeat runs the tool again (and fails again): a failure is never replayed.
    expect(errorCode(await s.call('ceo', 'fixture_note_write', { ...args, approval_id: id }))).toBe(
      'internal',
    );
    expect(effects.get(note)).toBe(2);
  });

  it('while the first call runs, a repeat hears approval_used: wait and repeat, not ask the owner', async () => {
    const { s } = env();
    const { note, args, id } = await approved('in-flight');
    // The state of an approval whose call is under way: used, its result not yet kept.
    await s.db.db
      .update(ownerApprovals)
      .set({ state: 'used', usedAt: env().clock.now(), usedRequestId: 'req-elsewhere' })
      .where(eq(ownerApprovals.id, id));
    const busy = await s.call('ceo', 'fixture_note_write', { ...args, approval_id: id });
    expect(busy).toMatchObject({ ok: false, error: { code: 'approval_used' } });
    const hint = busy.ok ? '' : (busy.error.hint ?? '');
    expect(hint).toMatch(/wait a moment and repeat the same call with the same approval_id/);
    expect(hint).toMatch(/Do not ask the owner again/);
    expect(effects.get(note)).toBeUndefined();
  });
});
