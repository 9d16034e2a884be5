// case_get through the official MCP client: success, not_found for unknown and deleted ids, bad input,
// grants (every real agent holds it, so the refusal is checked through the kernel), no audit row.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolList as tools } from '../../../functions/index.ts';
import { callTool } from '../../../src/contract/execute.ts';
import { buildRegistry } from '../../../src/contract/registry.ts';
import { auditLog } from '../../../src/db/schema/audit_log.ts';
import { caseDates, cases } from '../../../src/db/schema/cases.ts';
import { toolContext } from '../../harness/context.ts';
import { seedDocument, textBytes } from '../../harness/documents.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../../harness/server.ts';
import { caseMaker } from './_case.ts';

describe('case_get', () => {
  let s: TestServer;
  const create = caseMaker(() => s, 'CG');
  const auditCount = async () =>
    (await s.db.db.select({ n: sql<number>`count(*)::int` }).from(auditLog))[0]?.n ?? 0;

  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.close());

  it('returns the case as case_create returned it, with every field', async () => {
    const created = await create({
      appellant: 'לוי',
      respondent: 'הוועדה המקומית',
      committee: 'תל אביב-יפו',
      practice_area: 'permit',
      property_address: 'גוש 6000 חלקה 12',
      notes: 'הערה',
    });
    const audits = await auditCount();
    const env = await s.call('researcher', 'case_get', { case_id: created.id });
    expect(env.status).toBe('ok');
    const got = expectOk<{ case: Record<string, unknown> }>(env).case;
    expect(got).toEqual(created);
    expect(Object.keys(got).sort()).toEqual(
      [
        'id',
        'case_number',
        'title',
        'appellant',
        'respondent',
        'committee',
        'practice_area',
        'property_address',
        'status',
        'outcome',
        'notes',
        'has_final_text',
        'created_by',
        'created_at',
        'updated_at',
      ].sort(),
    );
    // The internal columns (final text, deletion data) are not part of the view.
    expect(got).not.toHaveProperty('final_text');
    expect(got).not.toHaveProperty('deleted_at');
    expect(await auditCount()).toBe(audits);
  });

  it('reflects later changes (reads the database, not a cache)', async () => {
    const c = await create();
    expectOk(await s.call('analyst', 'case_update', { case_id: c.id, status: 'drafting' }));
    await s.db.db.update(cases).set({ finalText: 'טקסט' }).where(eq(cases.id, c.id));
    const got = expectOk<{ case: { status: string; has_final_text: boolean } }>(
      await s.call('qa', 'case_get', { case_id: c.id }),
    ).case;
    expect(got.status).toBe('drafting');
    expect(got.has_final_text).toBe(true);
  });

  it('answers not_found for an unknown id and for a deleted case', async () => {
    const unknown = crypto.randomUUID();
    const env = await s.call('writer', 'case_get', { case_id: unknown });
    expect(errorCode(env)).toBe('not_found');
    expect(env.ok ? undefined : env.error.details).toEqual({ case_id: unknown });
    expect(env.ok ? '' : (env.error.hint ?? '')).toMatch(/case_list/);

    const c = await create();
    expectOk(await s.call('ceo', 'case_delete', { case_id: c.id, owner_ack: true, reason: 'נסגר' }));
    expect(errorCode(await s.call('ceo', 'case_get', { case_id: c.id }))).toBe('not_found');
    // The row is still there: deletion is soft.
    expect(await s.db.db.select().from(cases).where(eq(cases.id, c.id))).toHaveLength(1);
  });

  it('refuses bad input with invalid_args', async () => {
    const c = await create();
    const bad: Record<string, unknown>[] = [
      {},
      { case_id: 'not-a-uuid' },
      { case_id: 42 },
      { case_id: null },
      { case_id: c.id, include: 'all' },
      { caseid: c.id },
    ];
    for (const args of bad) {
      expect(errorCode(await s.call('ceo', 'case_get', args)), JSON.stringify(args)).toBe('invalid_args');
    }
    const typo = await s.call('ceo', 'case_get', { case_idd: c.id });
    expect(typo.message).toMatch(/did you mean "case_id"/);
  });

  it('is granted to every agent; a caller without the grant gets tool_not_granted from the kernel', async () => {
    const c = await create();
    for (const agent of ['ceo', 'analyst', 'researcher', 'writer', 'qa'] as const) {
      expect((await s.call(agent, 'case_get', { case_id: c.id })).ok, agent).toBe(true);
    }
    const tool = buildRegistry(tools).get('case_get');
    if (tool === undefined) throw new Error('case_get is not registered');
    const env = await callTool({
      tool,
      args: { case_id: c.id },
      grants: new Set(['case_list']),
      ctx: toolContext({ db: s.db.db, kv: s.kv }, { agent: 'outsider', requestId: 'req-grant' }),
    });
    expect(errorCode(env)).toBe('tool_not_granted');
  });
});

describe('case_get: dates, panel and candidates from the documents', () => {
  let s: TestServer;
  const create = caseMaker(() => s, 'CGD');
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.close());

  const doc = (caseId: string, role: 'appeal' | 'protocol' | 'deciding_appraisal', text: string) =>
    seedDocument(s.db.db, {
      corpus: 'case',
      caseId,
      bytes: textBytes(text),
      declaredMediaType: 'text/plain',
      title: `מסמך ${role}`,
      role,
    });

  it('offers dates and the deciding appraiser read in the documents, and sets none of them', async () => {
    const c = await create();
    const empty = expectOk<Record<string, unknown>>(await s.call('writer', 'case_get', { case_id: c.id }));
    expect(empty).toMatchObject({
      dates: {
        filing_date: null,
        response_date: null,
        hearings: [],
        decision_due_date: null,
        updated_by: null,
      },
      panel: { members: [], deciding_appraiser: null },
      deadline: null,
      candidates: [],
    });
    const appeal = await doc(
      c.id,
      'appeal',
      'כתב ערר\nהעוררים מגישים ערר זה על החלטת הוועדה המקומית מיום 1.12.2024.\nתאריך הגשה: 14.1.2025\nהשמאי המכריע קבע כי השומה נכונה.',
    );
    const protocol = await doc(c.id, 'protocol', 'פרוטוקול דיון\nישיבה מיום 3 במרץ 2025\nנוכחים: העוררים');
    await doc(c.id, 'deciding_appraisal', 'שומה מכרעת\nהשמאי המכריע, מר יעקב אברהמי, נתבקש להכריע בשומה.');
    const got = expectOk<{
      candidates: { field: string; value: string; document_id: string; text: string }[];
    }>(await s.call('writer', 'case_get', { case_id: c.id }));
    expect(got.candidates.map((x) => [x.field, x.value])).toEqual([
      ['filing_date', '2025-01-14'],
      ['hearing', '2025-03-03'],
      ['deciding_appraiser', 'יעקב אברהמי'],
    ]);
    expect(got.candidates[0]).toMatchObject({ document_id: appeal.id, page: 1 });
    expect(got.candidates[0]?.text).toContain('14.1.2025');
    expect(got.candidates[1]?.document_id).toBe(protocol.id);
    // Nothing was set by reading.
    expect(await s.db.db.select().from(caseDates).where(eq(caseDates.caseId, c.id))).toEqual([]);
    // Once set by a tool call, the candidate is no longer offered.
    expectOk(await s.call('analyst', 'case_dates_set', { case_id: c.id, filing_date: '2025-01-14' }));
    expectOk(await s.call('analyst', 'case_panel_set', { case_id: c.id, deciding_appraiser: 'יעקב אברהמי' }));
    const after = expectOk<{ candidates: { field: string }[]; dates: { filing_date: string } }>(
      await s.call('writer', 'case_get', { case_id: c.id }),
    );
    expect(after.dates.filing_date).toBe('2025-01-14');
    expect(after.candidates.map((x) => x.field)).toEqual(['hearing']);
  });
});
