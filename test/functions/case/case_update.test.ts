import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cases } from '../../../src/db/schema/cases.ts';
import { kvEntries } from '../../../src/db/schema/kv_entries.ts';
import { auditMark as auditMarkOf, caseRow } from '../../harness/rows.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../../harness/server.ts';
import { caseMaker } from './_case.ts';

interface CaseView {
  id: string;
  case_number: string;
  title: string;
  status: string;
  outcome: string | null;
  notes: string | null;
  appellant: string | null;
  updated_at: string;
  created_at: string;
}
interface UpdateData {
  case: CaseView;
  changed: string[];
}

describe('case_update', () => {
  let s: TestServer;
  const create = caseMaker(() => s, 'CU');
  const auditMark = () => auditMarkOf(s.db.db);
  const row = (id: string) => caseRow(s.db.db, id);

  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.close());

  it('changes only the fields given and says which', async () => {
    const c = await create();
    const audit = await auditMark();
    const env = await s.call('analyst', 'case_update', {
      case_id: c.id,
      title: 'כותרת חדשה',
      appellant: 'ישראלי',
      status: 'drafting',
    });
    const data = expectOk<UpdateData>(env);
    expect(data.changed.sort()).toEqual(['appellant', 'status', 'title']);
    expect(data.case).toMatchObject({
      id: c.id,
      case_number: c.case_number,
      title: 'כותרת חדשה',
      appellant: 'ישראלי',
      status: 'drafting',
      outcome: null,
      created_at: c.created_at,
    });
    expect(Date.parse(data.case.updated_at)).toBeGreaterThanOrEqual(Date.parse(c.updated_at));
    const stored = await row(c.id);
    expect(stored).toMatchObject({
      title: 'כותרת חדשה',
      appellant: 'ישראלי',
      status: 'drafting',
      respondent: null,
    });
    const written = await audit();
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      agent: 'analyst',
      tool: 'case_update',
      outcome: 'ok',
      errorCode: null,
    });
    expect(written[0]?.idempotencyKey).toContain(c.id);
    // A later change of one field leaves the others as they are (absent is not null).
    const notes = expectOk<UpdateData>(
      await s.call('analyst', 'case_update', { case_id: c.id, notes: 'רק הערה' }),
    );
    expect(notes.changed).toEqual(['notes']);
    expect(notes.case).toMatchObject({
      title: 'כותרת חדשה',
      appellant: 'ישראלי',
      status: 'drafting',
      notes: 'רק הערה',
    });
  });

  it('does not set the outcome: that is outcome_set’s, under the owner’s gate', async () => {
    const c = await create();
    const env = await s.call('ceo', 'case_update', {
      case_id: c.id,
      status: 'decided',
      outcome: 'rejection',
    });
    expect(errorCode(env)).toBe('invalid_args');
    expect(env.ok ? null : env.error.details?.unknown_arguments).toEqual([
      expect.objectContaining({ name: 'outcome' }),
    ]);
    const data = expectOk<UpdateData>(
      await s.call('ceo', 'case_update', { case_id: c.id, status: 'decided' }),
    );
    expect(data.case).toMatchObject({ status: 'decided', outcome: null });
  });

  it('a retried change sets the same values again and is never answered from a stale replay', async () => {
    const c = await create();
    const toB = { case_id: c.id, notes: 'B' };
    expectOk<UpdateData>(await s.call('ceo', 'case_update', toB));
    // A retry of the same change: same resulting values, no replay of a stored result.
    const again = await s.call('ceo', 'case_update', toB);
    expect(again).not.toHaveProperty('replayed');
    expect(expectOk<UpdateData>(again).case.notes).toBe('B');
    // B → C → B: the last call must win, not be replayed as the first one's answer.
    expectOk<UpdateData>(await s.call('ceo', 'case_update', { case_id: c.id, notes: 'C' }));
    const back = await s.call('ceo', 'case_update', toB);
    expect(back).not.toHaveProperty('replayed');
    expect(expectOk<UpdateData>(back).case.notes).toBe('B');
    expect((await row(c.id))?.notes).toBe('B');
    // Nothing is kept in the key-value store for it once the call finished.
    expect(
      (await s.db.db.select().from(kvEntries)).filter(
        (r) => r.value.includes('"s":"done"') && r.value.includes('"notes":"B"'),
      ),
    ).toEqual([]);
  });

  it('answers not_found for an unknown id and for a deleted case', async () => {
    const unknown = crypto.randomUUID();
    const audit = await auditMark();
    const env = await s.call('ceo', 'case_update', { case_id: unknown, title: 'x' });
    expect(errorCode(env)).toBe('not_found');
    const c = await create();
    expectOk(await s.call('ceo', 'case_delete', { case_id: c.id, owner_ack: true, reason: 'בוטל' }));
    const before = await row(c.id);
    expect(errorCode(await s.call('ceo', 'case_update', { case_id: c.id, title: 'שינוי' }))).toBe(
      'not_found',
    );
    expect(await row(c.id)).toEqual(before);
    const written = (await audit()).filter((r) => r.tool === 'case_update');
    expect(written.map((r) => r.errorCode)).toEqual(['not_found', 'not_found']);
  });

  it('an error releases the key: the same call runs again once the case is reachable', async () => {
    const id = crypto.randomUUID();
    expect(errorCode(await s.call('ceo', 'case_update', { case_id: id, title: 'אחרי' }))).toBe('not_found');
    await s.db.db
      .insert(cases)
      .values({ id, caseNumber: `ערר CU-late-${id}`, title: 'לפני', createdBy: 'test' });
    const env = await s.call('ceo', 'case_update', { case_id: id, title: 'אחרי' });
    expect(env).not.toHaveProperty('replayed');
    expect(expectOk<UpdateData>(env).case.title).toBe('אחרי');
  });

  it('refuses bad input with invalid_args and stores nothing for it', async () => {
    const c = await create();
    const kvBefore = (await s.db.db.select().from(kvEntries)).length;
    const audit = await auditMark();
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ case_id: c.id }, /at least one field/],
      [{ case_id: c.id, status: 'closed' }, /status/],
      [{ case_id: c.id, title: '' }, /title/],
      [{ case_id: c.id, title: '   ' }, /title/],
      [{ case_id: c.id, case_number: 'ערר 9/25' }, /case_number/],
      [{ case_id: c.id, titel: 'x' }, /did you mean "title"/],
      [{ case_id: 'abc', title: 'x' }, /case_id/],
      [{ title: 'x' }, /case_id/],
    ];
    for (const [args, mentions] of bad) {
      const env = await s.call('ceo', 'case_update', args);
      expect(errorCode(env), JSON.stringify(args)).toBe('invalid_args');
      expect(env.message, JSON.stringify(args)).toMatch(mentions);
    }
    expect((await row(c.id))?.title).toBe(c.title);
    // "No field to change" is found by the tool, after the key was claimed: it must be released, not stored.
    expect((await s.db.db.select().from(kvEntries)).length).toBe(kvBefore);
    const written = await audit();
    expect(written).toHaveLength(bad.length);
    expect(new Set(written.map((r) => r.errorCode))).toEqual(new Set(['invalid_args']));
  });

  it('refuses changes to an archived case with invalid_state until its status is set back', async () => {
    const c = await create();
    expectOk(await s.call('ceo', 'case_update', { case_id: c.id, status: 'archived' }));
    const audit = await auditMark();
    const env = await s.call('ceo', 'case_update', { case_id: c.id, title: 'שינוי בארכיון' });
    expect(errorCode(env)).toBe('invalid_state');
    expect(env.ok ? undefined : env.error.details).toMatchObject({ case_id: c.id, status: 'archived' });
    expect(
      errorCode(await s.call('ceo', 'case_update', { case_id: c.id, status: 'archived', notes: 'x' })),
    ).toBe('invalid_state');
    expect((await row(c.id))?.title).toBe(c.title);
    expect((await audit()).map((r) => r.errorCode)).toEqual(['invalid_state', 'invalid_state']);
    // Setting the status back is allowed, and afterwards the case changes again.
    expect(
      expectOk<UpdateData>(await s.call('ceo', 'case_update', { case_id: c.id, status: 'decided' })).case
        .status,
    ).toBe('decided');
    const after = expectOk<UpdateData>(
      await s.call('ceo', 'case_update', { case_id: c.id, title: 'שינוי בארכיון' }),
    );
    expect(after.case.title).toBe('שינוי בארכיון');
  });

  it('refuses agents without the grant (tool_not_granted) and changes nothing', async () => {
    const c = await create();
    for (const agent of ['researcher', 'writer', 'qa'] as const) {
      const audit = await auditMark();
      const env = await s.call(agent, 'case_update', { case_id: c.id, title: `by ${agent}` });
      expect(errorCode(env), agent).toBe('tool_not_granted');
      const written = await audit();
      expect(written).toHaveLength(1);
      expect(written[0]).toMatchObject({ agent, outcome: 'error', errorCode: 'tool_not_granted' });
    }
    expect((await row(c.id))?.title).toBe(c.title);
  });
});
