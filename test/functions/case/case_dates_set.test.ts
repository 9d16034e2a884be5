// case_dates_set: dates set, changed one by one and cleared; the deadline warning; archived and deleted
// cases; bad input; 20 identical calls at once; grants; on PGlite and PostgreSQL.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { case_dates_set } from '../../../functions/case/case_dates_set.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { caseDates } from '../../../src/db/schema/cases.ts';
import { ALL_STACKS, DB_STACKS, deleteCase, forEachStack, twentyAtOnce } from '../../harness/analysis.ts';
import { auditMark } from '../../harness/rows.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { caseMaker } from './_case.ts';

type Data = ToolData<typeof case_dates_set>;

/** The day `days` from today in Israel, as the tool counts. */
const dayFromToday = (days: number) => {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Jerusalem' }).format(new Date());
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
};

forEachStack('case_dates_set', DB_STACKS, (server, stack) => {
  const create = caseMaker(server, `CD${stack.db[0]}`);
  const set = (args: Record<string, unknown>, agent: 'ceo' | 'analyst' = 'ceo') =>
    server().call(agent, 'case_dates_set', args);

  it('sets the given dates, keeps the others, replaces the hearings, clears what it is told', async () => {
    const c = await create();
    const audit = await auditMark(server().db.db);
    const first = expectOk<Data>(
      await set({
        case_id: c.id,
        filing_date: '2025-03-02',
        hearings: [{ date: '2025-09-14', note: 'דיון מקדמי' }, { date: '2025-06-01' }],
      }),
    );
    expect(first).toMatchObject({
      case_id: c.id,
      case_number: c.case_number,
      changed: ['filing_date', 'hearings'],
      deadline: null,
      dates: {
        filing_date: '2025-03-02',
        response_date: null,
        decision_due_date: null,
        // Kept by date, whatever order they were given in.
        hearings: [
          { date: '2025-06-01', note: null },
          { date: '2025-09-14', note: 'דיון מקדמי' },
        ],
        updated_by: 'ceo',
      },
    });
    const written = await audit();
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      agent: 'ceo',
      tool: 'case_dates_set',
      outcome: 'ok',
      errorCode: null,
    });
    const second = expectOk<Data>(await set({ case_id: c.id, response_date: '2025-04-20' }, 'analyst'));
    expect(second.dates).toMatchObject({
      filing_date: '2025-03-02',
      response_date: '2025-04-20',
      updated_by: 'analyst',
    });
    expect(second.dates.hearings).toHaveLength(2);
    const cleared = expectOk<Data>(await set({ case_id: c.id, clear: ['hearings', 'filing_date'] }));
    expect(cleared.changed).toEqual(['hearings', 'filing_date']);
    expect(cleared.dates).toMatchObject({ filing_date: null, response_date: '2025-04-20', hearings: [] });
    const [row] = await server().db.db.select().from(caseDates).where(eq(caseDates.caseId, c.id));
    expect(row).toMatchObject({ filingDate: null, responseDate: '2025-04-20', hearings: [] });
  });

  it('warns of a decision due within 14 days or past, in the answer and in case_get and workflow_status', async () => {
    const c = await create();
    const cases: [number, string, RegExp | null][] = [
      [30, 'later', null],
      [14, 'due_soon', /in 14 day/],
      [0, 'due_soon', /due today/],
      [-3, 'passed', /3 day\(s\) ago/],
    ];
    for (const [days, state, warning] of cases) {
      const due = dayFromToday(days);
      const d = expectOk<Data>(await set({ case_id: c.id, decision_due_date: due }));
      expect(d.deadline, String(days)).toMatchObject({ due_date: due, days_left: days, state });
      if (warning === null) expect(d.deadline?.warning).toBeNull();
      else expect(d.deadline?.warning).toMatch(warning);
      const got = expectOk<{ deadline: unknown }>(
        await server().call('writer', 'case_get', { case_id: c.id }),
      );
      expect(got.deadline).toEqual(d.deadline);
      const status = await server().call('writer', 'workflow_status', { case_id: c.id });
      expect(expectOk<{ deadline: unknown }>(status).deadline).toEqual(d.deadline);
      if (warning !== null) expect(status.message).toMatch(warning);
    }
  });

  it('answers not_found for an unknown and a deleted case, and writes nothing', async () => {
    const audit = await auditMark(server().db.db);
    expect(errorCode(await set({ case_id: crypto.randomUUID(), filing_date: '2025-01-01' }))).toBe(
      'not_found',
    );
    const c = await create();
    await deleteCase(server().db.db, c.id);
    expect(errorCode(await set({ case_id: c.id, filing_date: '2025-01-01' }))).toBe('not_found');
    expect(await server().db.db.select().from(caseDates).where(eq(caseDates.caseId, c.id))).toEqual([]);
    expect((await audit()).filter((r) => r.tool === 'case_dates_set').map((r) => r.errorCode)).toEqual([
      'not_found',
      'not_found',
    ]);
  });

  it('refuses an archived case with invalid_state', async () => {
    const c = await create();
    expectOk(await server().call('ceo', 'case_update', { case_id: c.id, status: 'archived' }));
    const env = await set({ case_id: c.id, decision_due_date: '2026-01-01' });
    expect(errorCode(env)).toBe('invalid_state');
    expect(env.ok ? null : env.error.details).toMatchObject({ case_id: c.id, status: 'archived' });
    expect(await server().db.db.select().from(caseDates).where(eq(caseDates.caseId, c.id))).toEqual([]);
  });

  it('refuses bad input with invalid_args', async () => {
    const c = await create();
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ case_id: c.id }, /at least one/],
      [{ case_id: c.id, filing_date: '2025-02-30' }, /filing_date/],
      [{ case_id: c.id, filing_date: '3.2.2025' }, /filing_date/],
      [{ case_id: c.id, hearings: [{ note: 'x' }] }, /hearings/],
      [{ case_id: c.id, filing_date: '2025-02-01', clear: ['filing_date'] }, /given and cleared/],
      [{ case_id: c.id, clear: ['title'] }, /clear/],
      [{ case_id: c.id, clear: [] }, /clear/],
      [{ case_id: c.id, decision_due_dat: '2025-01-01' }, /did you mean "decision_due_date"/],
      [{ case_id: 'x', filing_date: '2025-01-01' }, /case_id/],
    ];
    for (const [args, mentions] of bad) {
      const env = await set(args);
      expect(errorCode(env), JSON.stringify(args)).toBe('invalid_args');
      expect(env.message, JSON.stringify(args)).toMatch(mentions);
    }
    expect(await server().db.db.select().from(caseDates).where(eq(caseDates.caseId, c.id))).toEqual([]);
  });

  it('refuses agents without the grant (tool_not_granted)', async () => {
    const c = await create();
    for (const agent of ['researcher', 'writer', 'qa'] as const) {
      const env = await server().call(agent, 'case_dates_set', { case_id: c.id, filing_date: '2025-01-01' });
      expect(errorCode(env), agent).toBe('tool_not_granted');
      expect(env.ok ? null : env.error.details).toMatchObject({ granted_to: ['analyst', 'ceo'] });
    }
    expect(await server().db.db.select().from(caseDates).where(eq(caseDates.caseId, c.id))).toEqual([]);
  });
});

forEachStack('case_dates_set at once', ALL_STACKS, (server, stack) => {
  const create = caseMaker(server, `CDX${stack.db[0]}${stack.kv[0]}`);
  it('20 identical calls settle to one row with the same dates', async () => {
    const c = await create();
    const args = { case_id: c.id, filing_date: '2025-05-05', hearings: [{ date: '2025-07-07' }] };
    const answers = await twentyAtOnce(server(), 'case_dates_set', args, ['ceo', 'analyst']);
    for (const env of answers) expect(expectOk<Data>(env).dates).toMatchObject({ filing_date: '2025-05-05' });
    const rows = await server().db.db.select().from(caseDates).where(eq(caseDates.caseId, c.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      filingDate: '2025-05-05',
      hearings: [{ date: '2025-07-07', note: null }],
    });
  });
});
