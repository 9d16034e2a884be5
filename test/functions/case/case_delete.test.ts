import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kvEntries } from '../../../src/db/schema/kv_entries.ts';
import { auditMark as auditMarkOf, caseRow } from '../../harness/rows.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../../harness/server.ts';
import { caseMaker } from './_case.ts';

interface CaseView {
  id: string;
  case_number: string;
  title: string;
}
interface DeleteData {
  case_id: string;
  case_number: string;
  deleted_at: string;
}

describe('case_delete', () => {
  let s: TestServer;
  const make = caseMaker(() => s, 'CD');
  const create = () => make({ appellant: 'מזרחי', notes: 'נשמר' });
  const auditMark = () => auditMarkOf(s.db.db);
  const row = (id: string) => caseRow(s.db.db, id);

  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.close());

  it('soft-deletes with the owner’s ack: the row and its data stay, no tool reaches it', async () => {
    const c = await create();
    const audit = await auditMark();
    const env = await s.call('ceo', 'case_delete', {
      case_id: c.id,
      owner_ack: true,
      reason: '  היו״ר אישר: נפתח בטעות  ',
    });
    const data = expectOk<DeleteData>(env);
    expect(data).toMatchObject({ case_id: c.id, case_number: c.case_number });
    const stored = await row(c.id);
    expect(stored).toMatchObject({
      title: c.title,
      appellant: 'מזרחי',
      notes: 'נשמר',
      deletedBy: 'ceo',
      deleteReason: 'היו״ר אישר: נפתח בטעות',
    });
    expect(stored?.deletedAt?.toISOString()).toBe(data.deleted_at);
    const written = await audit();
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      agent: 'ceo',
      tool: 'case_delete',
      idempotencyKey: c.id,
      outcome: 'ok',
      errorCode: null,
      ownerAck: true,
      ownerReason: 'היו״ר אישר: נפתח בטעות',
    });
    expect(errorCode(await s.call('ceo', 'case_get', { case_id: c.id }))).toBe('not_found');
    expect(errorCode(await s.call('ceo', 'case_final_text_get', { case_id: c.id }))).toBe('not_found');
    const listed = expectOk<{ items: CaseView[] }>(await s.call('ceo', 'case_list', { text: c.case_number }));
    expect(listed.items).toEqual([]);
  });

  it('replays a retry with replayed: true and deletes only once', async () => {
    const c = await create();
    const args = { case_id: c.id, owner_ack: true, reason: 'כפילות' };
    const first = expectOk<DeleteData>(await s.call('ceo', 'case_delete', args));
    const before = await row(c.id);
    const audit = await auditMark();
    const again = await s.call('ceo', 'case_delete', args);
    expect(again).toMatchObject({ ok: true, replayed: true });
    expect(expectOk<DeleteData>(again)).toEqual(first);
    expect(await row(c.id)).toEqual(before);
    const written = await audit();
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ outcome: 'replayed', ownerAck: true, ownerReason: 'כפילות' });
  });

  it('refuses without the owner’s ack or reason (owner_gate_required) and deletes nothing', async () => {
    const c = await create();
    const audit = await auditMark();
    // [arguments, what the refusal says is missing, what the audit row records as given]
    const attempts: [Record<string, unknown>, string[], { ownerAck: boolean; ownerReason: string | null }][] =
      [
        [{ case_id: c.id }, ['owner_ack: true', 'reason'], { ownerAck: false, ownerReason: null }],
        [{ case_id: c.id, reason: 'בבקשה' }, ['owner_ack: true'], { ownerAck: false, ownerReason: 'בבקשה' }],
        [
          { case_id: c.id, owner_ack: false, reason: 'בבקשה' },
          ['owner_ack: true'],
          { ownerAck: false, ownerReason: 'בבקשה' },
        ],
        [{ case_id: c.id, owner_ack: true }, ['reason'], { ownerAck: true, ownerReason: null }],
        [{ case_id: c.id, owner_ack: true, reason: '' }, ['reason'], { ownerAck: true, ownerReason: null }],
        [
          { case_id: c.id, owner_ack: true, reason: '   ' },
          ['reason'],
          { ownerAck: true, ownerReason: null },
        ],
        [
          { case_id: c.id, owner_ack: null, reason: null },
          ['owner_ack: true', 'reason'],
          { ownerAck: false, ownerReason: null },
        ],
      ];
    for (const [args, missing] of attempts) {
      const env = await s.call('ceo', 'case_delete', args);
      expect(errorCode(env), JSON.stringify(args)).toBe('owner_gate_required');
      expect(env.ok ? undefined : env.error.details, JSON.stringify(args)).toEqual({ missing });
      expect(env.ok ? '' : env.error.hint).toMatch(/owner/);
    }
    expect((await row(c.id))?.deletedAt).toBeNull();
    const written = await audit();
    expect(written).toHaveLength(attempts.length);
    for (const [i, r] of written.entries()) {
      expect(r).toMatchObject({ outcome: 'error', errorCode: 'owner_gate_required', ...attempts[i]?.[2] });
    }
    // The gate is no idempotency record: an approved call afterwards goes through.
    expectOk(await s.call('ceo', 'case_delete', { case_id: c.id, owner_ack: true, reason: 'אושר' }));
  });

  it('refuses a string "true" that is not JSON text of a boolean, and accepts JSON text "true"', async () => {
    const c = await create();
    expect(
      errorCode(await s.call('ceo', 'case_delete', { case_id: c.id, owner_ack: 'yes', reason: 'r' })),
    ).toBe('invalid_args');
    expect((await row(c.id))?.deletedAt).toBeNull();
    expectOk(await s.call('ceo', 'case_delete', { case_id: c.id, owner_ack: 'true', reason: 'r' }));
  });

  it('answers not_found for an unknown id and for an already deleted case', async () => {
    const audit = await auditMark();
    const unknown = crypto.randomUUID();
    const env = await s.call('ceo', 'case_delete', { case_id: unknown, owner_ack: true, reason: 'r' });
    expect(errorCode(env)).toBe('not_found');
    const c = await create();
    expectOk(await s.call('ceo', 'case_delete', { case_id: c.id, owner_ack: true, reason: 'ראשון' }));
    const before = await row(c.id);
    // Past the replay window (or after the key-value store was flushed) the deleted row answers.
    await s.db.db.delete(kvEntries);
    const again = await s.call('ceo', 'case_delete', { case_id: c.id, owner_ack: true, reason: 'ראשון' });
    expect(errorCode(again)).toBe('not_found');
    expect(await row(c.id)).toEqual(before);
    const deletes = (await audit()).filter((r) => r.tool === 'case_delete');
    expect(deletes.map((r) => r.errorCode)).toEqual(['not_found', null, 'not_found']);
  });

  it('refuses a second delete with another reason while the first is remembered (idempotency_key_reuse)', async () => {
    const c = await create();
    expectOk(await s.call('ceo', 'case_delete', { case_id: c.id, owner_ack: true, reason: 'סיבה א' }));
    const env = await s.call('ceo', 'case_delete', { case_id: c.id, owner_ack: true, reason: 'סיבה ב' });
    expect(errorCode(env)).toBe('idempotency_key_reuse');
    expect((await row(c.id))?.deleteReason).toBe('סיבה א');
  });

  it('refuses bad input with invalid_args', async () => {
    for (const args of [
      { owner_ack: true, reason: 'r' },
      { case_id: 'x', owner_ack: true, reason: 'r' },
      { case_id: crypto.randomUUID(), owner_ack: true, reason: 'r', force: true },
      { case_id: crypto.randomUUID(), owner_ack: true, reason: 'r'.repeat(2001) },
    ]) {
      expect(errorCode(await s.call('ceo', 'case_delete', args)), JSON.stringify(args).slice(0, 80)).toBe(
        'invalid_args',
      );
    }
  });

  it('refuses agents without the grant (tool_not_granted), even with the owner’s ack', async () => {
    const c = await create();
    for (const agent of ['researcher', 'analyst', 'writer', 'qa'] as const) {
      const audit = await auditMark();
      const env = await s.call(agent, 'case_delete', { case_id: c.id, owner_ack: true, reason: 'r' });
      expect(errorCode(env), agent).toBe('tool_not_granted');
      const written = await audit();
      expect(written).toHaveLength(1);
      expect(written[0]).toMatchObject({ agent, tool: 'case_delete', errorCode: 'tool_not_granted' });
    }
    expect((await row(c.id))?.deletedAt).toBeNull();
  });

  it('is advertised as destructive with the gate parameters', async () => {
    const ceo = await s.connect('ceo');
    const listed = (await ceo.listTools()).tools.find((t) => t.name === 'case_delete');
    expect(listed?.annotations).toEqual({
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(Object.keys(listed?.inputSchema.properties ?? {}).sort()).toEqual([
      'case_id',
      'owner_ack',
      'reason',
    ]);
  });
});
