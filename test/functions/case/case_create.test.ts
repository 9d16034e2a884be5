// case_create through the official MCP client: success, C4 replay and key reuse, the durable layer without
// the key-value store, a deleted case's number, invalid input, grants, and one audit row per call.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cases } from '../../../src/db/schema/cases.ts';
import { kvEntries } from '../../../src/db/schema/kv_entries.ts';
import { auditMark as auditMarkOf } from '../../harness/rows.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../../harness/server.ts';

interface CaseData {
  case: {
    id: string;
    case_number: string;
    title: string;
    appellant: string | null;
    practice_area: string | null;
    status: string;
    outcome: string | null;
    has_final_text: boolean;
    created_by: string;
    created_at: string;
  };
  created: boolean;
}

describe('case_create', () => {
  let s: TestServer;
  let n = 0;
  const number = () => `ערר CC-${++n}/25`;

  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.close());

  /** The audit rows written after this point, in order. */
  const auditMark = () => auditMarkOf(s.db.db);
  const rowsFor = (caseNumber: string) =>
    s.db.db.select().from(cases).where(eq(cases.caseNumber, caseNumber));
  const kvCount = async () => (await s.db.db.select({ key: kvEntries.key }).from(kvEntries)).length;

  it('opens a case and writes one audit row', async () => {
    const num = number();
    const audit = await auditMark();
    const env = await s.call('ceo', 'case_create', {
      case_number: num,
      title: 'היטל השבחה — רחוב הרצל 5',
      appellant: 'כהן',
      practice_area: 'betterment levy',
    });
    expect(env.status).toBe('ok');
    const data = expectOk<CaseData>(env);
    expect(data.created).toBe(true);
    expect(data.case).toMatchObject({
      case_number: num,
      title: 'היטל השבחה — רחוב הרצל 5',
      appellant: 'כהן',
      status: 'open',
      outcome: null,
      has_final_text: false,
      created_by: 'ceo',
    });
    expect(data.case.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(env).not.toHaveProperty('replayed');
    const rows = await rowsFor(num);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.id).toBe(data.case.id);
    // The legacy free-text area is mapped to the one practice-area vocabulary on input.
    expect(data.case.practice_area).toBe('betterment_levy');
    expect(rows[0]?.practiceArea).toBe('betterment_levy');
    const written = await audit();
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      agent: 'ceo',
      tool: 'case_create',
      idempotencyKey: num,
      outcome: 'ok',
      errorCode: null,
      ownerAck: null,
      ownerReason: null,
    });
    expect(written[0]?.requestId.length).toBeGreaterThan(0);
  });

  it('keeps JSON-looking strings as strings (C3)', async () => {
    const num = `null-${number()}`;
    const data = expectOk<CaseData>(
      await s.call('ceo', 'case_create', { case_number: num, title: '[1, 2]', appellant: '{"a": 1}' }),
    );
    expect(data.case.title).toBe('[1, 2]');
    expect(data.case.appellant).toBe('{"a": 1}');
    const literal = expectOk<CaseData>(
      await s.call('ceo', 'case_create', { case_number: 'null', title: 'null' }),
    );
    expect(literal.case.case_number).toBe('null');
    expect(literal.case.title).toBe('null');
  });

  it('replays a retry with replayed: true, no second row and only a "replayed" audit row', async () => {
    const num = number();
    const args = { case_number: num, title: 'ניסיון חוזר' };
    const first = await s.call('ceo', 'case_create', args);
    const firstData = expectOk<CaseData>(first);
    const before = await rowsFor(num);
    const audit = await auditMark();
    const kvBefore = await kvCount();
    const again = await s.call('ceo', 'case_create', args);
    expect(again.ok).toBe(true);
    expect(again).toMatchObject({ replayed: true, status: 'ok' });
    // The stored envelope of the first call, unchanged (created stays true: it is that call's result).
    expect(expectOk<CaseData>(again)).toEqual(firstData);
    expect(again.message).toBe(first.message);
    expect(await rowsFor(num)).toEqual(before);
    expect(await kvCount()).toBe(kvBefore);
    const written = await audit();
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      tool: 'case_create',
      outcome: 'replayed',
      errorCode: null,
      idempotencyKey: num,
    });
  });

  it('treats surrounding whitespace in the number as the same call (the schema trims)', async () => {
    const num = number();
    const first = expectOk<CaseData>(
      await s.call('ceo', 'case_create', { case_number: num, title: 'רווחים' }),
    );
    const spaced = await s.call('ceo', 'case_create', { case_number: `  ${num} `, title: 'רווחים' });
    expect(spaced).toMatchObject({ ok: true, replayed: true });
    expect(expectOk<CaseData>(spaced).case.id).toBe(first.case.id);
    expect(await rowsFor(num)).toHaveLength(1);
  });

  it('refuses the same number with different details: idempotency_key_reuse, row unchanged', async () => {
    const num = number();
    expectOk(await s.call('ceo', 'case_create', { case_number: num, title: 'המקורי' }));
    const audit = await auditMark();
    const env = await s.call('ceo', 'case_create', { case_number: num, title: 'אחר' });
    expect(errorCode(env)).toBe('idempotency_key_reuse');
    expect(env.ok ? undefined : env.error.details).toMatchObject({ key: num });
    const rows = await rowsFor(num);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.title).toBe('המקורי');
    const written = await audit();
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      outcome: 'error',
      errorCode: 'idempotency_key_reuse',
      idempotencyKey: num,
    });
  });

  it('without the key-value record, the natural key still returns the existing case with created=false', async () => {
    const num = number();
    const first = expectOk<CaseData>(await s.call('ceo', 'case_create', { case_number: num, title: 'עמיד' }));
    // The key-value store lost its records (expiry after 24 h, a flushed Redis): the database still holds.
    await s.db.db.delete(kvEntries);
    const env = await s.call('ceo', 'case_create', { case_number: num, title: 'עמיד' });
    expect(env).not.toHaveProperty('replayed');
    const data = expectOk<CaseData>(env);
    expect(data.created).toBe(false);
    expect(data.case.id).toBe(first.case.id);
    expect(env.message).toMatch(/already exists/);
    expect(await rowsFor(num)).toHaveLength(1);
  });

  it('without the key-value record, the same number with other details is still idempotency_key_reuse', async () => {
    const num = number();
    const first = expectOk<CaseData>(
      await s.call('ceo', 'case_create', { case_number: num, title: 'מקור', appellant: 'כהן' }),
    );
    await s.db.db.delete(kvEntries);
    const audit = await auditMark();
    for (const [args, different] of [
      [{ title: 'שונה', appellant: 'כהן' }, ['title']],
      // Leaving out a detail the case has is a difference too: the request layer would refuse it as well.
      [{ title: 'מקור' }, ['appellant']],
      [{ title: 'מקור', appellant: 'כהן', notes: 'חדש' }, ['notes']],
    ] as const) {
      await s.db.db.delete(kvEntries);
      const env = await s.call('ceo', 'case_create', { case_number: num, ...args });
      expect(errorCode(env), JSON.stringify(args)).toBe('idempotency_key_reuse');
      expect(env.ok ? undefined : env.error.details).toEqual({ key: num, case_id: first.case.id, different });
      expect(env.ok ? '' : env.error.hint).toMatch(/case_update/);
    }
    const rows = await rowsFor(num);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ title: 'מקור', appellant: 'כהן', notes: null });
    expect((await audit()).map((r) => r.errorCode)).toEqual([
      'idempotency_key_reuse',
      'idempotency_key_reuse',
      'idempotency_key_reuse',
    ]);
  });

  it("refuses a deleted case's number with invalid_state and leaves the deleted row as it was", async () => {
    const num = number();
    const args = { case_number: num, title: 'נמחק' };
    const created = expectOk<CaseData>(await s.call('ceo', 'case_create', args));
    expectOk(
      await s.call('ceo', 'case_delete', { case_id: created.case.id, owner_ack: true, reason: 'נפתח בטעות' }),
    );
    const [deleted] = await rowsFor(num);
    // Past the 24 h replay window the stored result is gone; the deleted row answers instead.
    await s.db.db.delete(kvEntries);
    const audit = await auditMark();
    const env = await s.call('ceo', 'case_create', args);
    expect(errorCode(env)).toBe('invalid_state');
    expect(env.ok ? undefined : env.error.details).toMatchObject({ case_number: num });
    expect(env.ok ? undefined : env.error.details?.deleted_at).toBe(deleted?.deletedAt?.toISOString());
    const rows = await rowsFor(num);
    expect(rows).toEqual([deleted]);
    expect(rows[0]?.deletedAt).not.toBeNull();
    const written = await audit();
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ outcome: 'error', errorCode: 'invalid_state' });
  });

  it('refuses bad input with invalid_args, naming the parameter, and stores nothing', async () => {
    const audit = await auditMark();
    const kvBefore = await kvCount();
    const num = number();
    const cases_: [Record<string, unknown>, RegExp][] = [
      [{ case_number: num }, /title/],
      [{ title: 'בלי מספר' }, /case_number/],
      [{ case_number: '   ', title: 'ריק' }, /case_number/],
      [{ case_number: 'x'.repeat(101), title: 'ארוך' }, /case_number/],
      [{ case_number: 12, title: 'מספר' }, /case_number/],
      [{ case_number: num, title: 'שגיאת כתיב', appelant: 'כהן' }, /did you mean "appellant"/],
    ];
    for (const [args, mentions] of cases_) {
      const env = await s.call('ceo', 'case_create', args);
      expect(errorCode(env), JSON.stringify(args)).toBe('invalid_args');
      expect(env.message).toMatch(mentions);
    }
    const typo = await s.call('ceo', 'case_create', { case_number: num, title: 't', titel: 'x' });
    expect(typo.ok ? undefined : typo.error.details).toMatchObject({
      unknown_arguments: [{ name: 'titel', did_you_mean: 'title' }],
    });
    expect(await rowsFor(num)).toHaveLength(0);
    expect(await kvCount()).toBe(kvBefore);
    const written = await audit();
    expect(written).toHaveLength(cases_.length + 1);
    for (const row of written) {
      expect(row).toMatchObject({
        tool: 'case_create',
        outcome: 'error',
        errorCode: 'invalid_args',
        idempotencyKey: null,
      });
    }
  });

  it('takes the practice area in any of its words, and refuses one that names no area', async () => {
    const num = number();
    const first = expectOk<CaseData>(
      await s.call('ceo', 'case_create', { case_number: num, title: 't', practice_area: 'היטל השבחה' }),
    );
    expect(first.case.practice_area).toBe('betterment_levy');
    const update = await s.call('ceo', 'case_update', { case_id: first.case.id, practice_area: 'Permit' });
    expect(expectOk<CaseData>(update).case.practice_area).toBe('permits');
    const other = number();
    const env = await s.call('ceo', 'case_create', {
      case_number: other,
      title: 't',
      practice_area: 'real estate',
    });
    expect(errorCode(env)).toBe('invalid_args');
    expect(env.ok ? [] : env.error.details?.accepted).toEqual(
      expect.arrayContaining(['betterment_levy', 'היתרים', 'permit']),
    );
    expect(await rowsFor(other)).toHaveLength(0);
  });

  it('refuses agents without the grant (tool_not_granted) and creates nothing', async () => {
    for (const agent of ['researcher', 'analyst', 'writer', 'qa'] as const) {
      const num = number();
      const audit = await auditMark();
      const env = await s.call(agent, 'case_create', { case_number: num, title: 'לא מורשה' });
      expect(errorCode(env), agent).toBe('tool_not_granted');
      expect(env.ok ? undefined : env.error.details).toMatchObject({ agent, tool: 'case_create' });
      expect(await rowsFor(num)).toHaveLength(0);
      const written = await audit();
      expect(written).toHaveLength(1);
      expect(written[0]).toMatchObject({ agent, outcome: 'error', errorCode: 'tool_not_granted' });
    }
  });

  it('is hidden from tools/list of agents without the grant', async () => {
    const researcher = await s.connect('researcher');
    const names = (await researcher.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('case_create');
    const ceo = await s.connect('ceo');
    const listed = (await ceo.listTools()).tools.find((t) => t.name === 'case_create');
    // A writer: not destructive, idempotent (readOnlyHint false is the protocol's default, left out).
    expect(listed?.annotations).toEqual({
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });
});
