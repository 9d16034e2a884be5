// case_list through the official MCP client: filters, stable order, limit clamping, cursor paging with no
// duplicates or gaps (including timestamps finer than a millisecond), bad cursors, and "empty".
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { case_list } from '../../../functions/case/case_list.ts';
import { toolList as tools } from '../../../functions/index.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { callTool } from '../../../src/contract/execute.ts';
import { encodeCursor } from '../../../src/contract/limits.ts';
import { buildRegistry } from '../../../src/contract/registry.ts';
import { auditLog } from '../../../src/db/schema/audit_log.ts';
import { cases } from '../../../src/db/schema/cases.ts';
import { toolContext } from '../../harness/context.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../../harness/server.ts';

type Page = ToolData<typeof case_list>;
type Item = Page['items'][number];

describe('case_list', () => {
  let s: TestServer;
  const list = async (args: Record<string, unknown>, agent: 'ceo' | 'researcher' = 'ceo') =>
    s.call(agent, 'case_list', args);
  const page = async (args: Record<string, unknown>) => expectOk<Page>(await list(args));

  /** Walks every page with `limit`, returning the items in order. */
  const walk = async (args: Record<string, unknown>, limit: number) => {
    const seen: Item[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 100; i++) {
      const p = await page({ ...args, limit, ...(cursor === undefined ? {} : { cursor }) });
      expect(p.limit).toBe(limit);
      expect(p.items.length).toBeLessThanOrEqual(limit);
      seen.push(...p.items);
      if (p.next_cursor === null) return seen;
      expect(p.items).toHaveLength(limit);
      cursor = p.next_cursor;
    }
    throw new Error('paging did not end');
  };

  // Created through the tool: seven cases with a spread of statuses, outcomes and practice areas.
  const made: Item[] = [];
  beforeAll(async () => {
    s = await startTestServer();
    const specs = [
      { title: 'Alpha היטל השבחה', practice_area: 'betterment levy' },
      { title: 'Beta היתר בנייה', practice_area: 'permit' },
      { title: 'Gamma 100% תכנית', practice_area: 'plan' },
      { title: 'Delta היטל', practice_area: 'betterment levy' },
      { title: 'Epsilon', practice_area: 'permit' },
      { title: 'Zeta under_score', practice_area: 'plan' },
      { title: 'Eta', practice_area: 'betterment levy' },
    ];
    for (const [i, spec] of specs.entries()) {
      const data = expectOk<{ case: Item }>(
        await s.call('ceo', 'case_create', { case_number: `ערר CL-${i + 1}/25`, ...spec }),
      );
      made.push(data.case);
    }
    const update = async (i: number, change: Record<string, unknown>) => {
      const c = made[i];
      if (c === undefined) throw new Error('no such fixture');
      const { outcome, ...fields } = change;
      expectOk(await s.call('ceo', 'case_update', { case_id: c.id, ...fields }));
      if (outcome !== undefined)
        expectOk(
          await s.call('ceo', 'outcome_set', { case_id: c.id, outcome, owner_ack: true, reason: 'הוחלט' }),
        );
    };
    await update(1, { status: 'decided', outcome: 'rejection' });
    await update(3, { status: 'decided', outcome: 'full_acceptance' });
    await update(4, { status: 'drafting' });
    await update(6, { status: 'decided', outcome: 'rejection' });
  });
  afterAll(async () => s?.close());

  const live = () => made.filter((c) => !c.title.startsWith('Eta'));

  it('lists cases oldest first with the default limit, and deleted cases never appear', async () => {
    const eta = made[6];
    if (eta === undefined) throw new Error('fixture missing');
    expectOk(await s.call('ceo', 'case_delete', { case_id: eta.id, owner_ack: true, reason: 'כפילות' }));
    const p = await page({});
    expect(p.limit).toBe(20);
    expect(p.next_cursor).toBeNull();
    expect(p.items.map((c) => c.id)).toEqual(live().map((c) => c.id));
    // Oldest first: the creation times, as stored, ascend along the page.
    const stored = await s.db.db.select({ id: cases.id, at: cases.createdAt }).from(cases);
    const at = new Map(stored.map((r) => [r.id, r.at.getTime()]));
    const times = p.items.map((c) => at.get(c.id) ?? Number.NaN);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('filters by status, outcome, practice area and text', async () => {
    const ids = async (args: Record<string, unknown>) => (await page(args)).items.map((c) => c.title);
    expect(await ids({ status: 'decided' })).toEqual(['Beta היתר בנייה', 'Delta היטל']);
    expect(await ids({ status: 'drafting' })).toEqual(['Epsilon']);
    expect(await ids({ outcome: 'rejection' })).toEqual(['Beta היתר בנייה']);
    expect(await ids({ status: 'decided', outcome: 'full_acceptance' })).toEqual(['Delta היטל']);
    expect(await ids({ practice_area: 'betterment levy' })).toEqual(['Alpha היטל השבחה', 'Delta היטל']);
    // Each filter takes its vocabulary's value, its Hebrew label, or a legacy word (mapped on input).
    for (const area of ['betterment_levy', 'היטל השבחה'])
      expect(await ids({ practice_area: area })).toEqual(['Alpha היטל השבחה', 'Delta היטל']);
    for (const outcome of ['rejected', 'דחייה', 'הערר נדחה'])
      expect(await ids({ outcome })).toEqual(['Beta היתר בנייה']);
    expect(errorCode(await list({ practice_area: 'real estate' }))).toBe('invalid_args');
    expect(errorCode(await list({ outcome: 'won' }))).toBe('invalid_args');
    // Text matches number or title, case-insensitively.
    expect(await ids({ text: 'alpha' })).toEqual(['Alpha היטל השבחה']);
    expect(await ids({ text: 'היטל' })).toEqual(['Alpha היטל השבחה', 'Delta היטל']);
    expect(await ids({ text: 'CL-5/' })).toEqual(['Epsilon']);
    // LIKE wildcards in the text are literal characters.
    expect(await ids({ text: '%' })).toEqual(['Gamma 100% תכנית']);
    expect(await ids({ text: '_' })).toEqual(['Zeta under_score']);
  });

  it('says "empty" (not an error) when nothing matches', async () => {
    const env = await list({ status: 'archived' });
    expect(env.ok).toBe(true);
    expect(env.status).toBe('empty');
    expect(expectOk<Page>(env)).toEqual({ items: [], limit: 20, next_cursor: null });
    const byText = await list({ text: 'no such case anywhere' });
    expect(byText.status).toBe('empty');
  });

  it('clamps the limit to 1..200 and reports the limit it applied', async () => {
    const zero = await page({ limit: 0 });
    expect(zero.limit).toBe(1);
    expect(zero.items).toHaveLength(1);
    expect(zero.next_cursor).not.toBeNull();
    expect((await page({ limit: -7 })).limit).toBe(1);
    const big = await page({ limit: 500 });
    expect(big.limit).toBe(200);
    expect(big.items).toHaveLength(live().length);
    // JSON text for the integer parameter is accepted (C3); a fraction is not.
    expect((await page({ limit: '3' })).limit).toBe(3);
    expect(errorCode(await list({ limit: 2.5 }))).toBe('invalid_args');
    expect(errorCode(await list({ limit: '020' }))).toBe('invalid_args');
  });

  it('pages with the cursor across pages with no duplicates and no gaps', async () => {
    for (const limit of [1, 2, 4]) {
      const all = await walk({}, limit);
      expect(all.map((c) => c.id)).toEqual(live().map((c) => c.id));
    }
    // With a filter the cursor continues inside the filtered set.
    const levy = await walk({ practice_area: 'permit' }, 1);
    expect(levy.map((c) => c.title)).toEqual(['Beta היתר בנייה', 'Epsilon']);
  });

  it('pages correctly through cases created within the same millisecond and with equal timestamps', async () => {
    // Postgres keeps microseconds; a cursor that rounds to milliseconds would repeat or skip these.
    const stamps = [
      '2020-01-01 00:00:00.123100+00',
      '2020-01-01 00:00:00.123400+00',
      '2020-01-01 00:00:00.123400+00',
      '2020-01-01 00:00:00.123400+00',
      '2020-01-01 00:00:00.123999+00',
      '2020-01-01 00:00:00.124000+00',
      '2020-01-01 00:00:01+00',
    ];
    for (const [i, at] of stamps.entries()) {
      await s.db.db.insert(cases).values({
        id: crypto.randomUUID(),
        caseNumber: `ערר MICRO-${i}/20`,
        title: `micro ${i}`,
        createdBy: 'test',
        createdAt: sql`${at}::timestamptz`,
        updatedAt: sql`${at}::timestamptz`,
      });
    }
    const expected = (await page({ text: 'MICRO-', limit: 50 })).items.map((c) => c.id);
    expect(expected).toHaveLength(stamps.length);
    for (const limit of [1, 2, 3]) {
      const got = (await walk({ text: 'MICRO-' }, limit)).map((c) => c.id);
      expect(got, `limit ${limit}`).toEqual(expected);
    }
    // They are the oldest cases, so they also lead the unfiltered walk.
    const everything = (await walk({}, 2)).map((c) => c.id);
    expect(everything).toEqual([...expected, ...live().map((c) => c.id)]);
  });

  it('refuses a cursor it did not issue with invalid_args', async () => {
    const bad = [
      'not a cursor',
      '!!!',
      Buffer.from('{"t":"case_list"}').toString('base64url'),
      encodeCursor('document_list', {}, ['2025-01-01T00:00:00.000Z', crypto.randomUUID()]),
      // Well-formed but forged: the key must not reach the database as garbage.
      encodeCursor('case_list', {}, ['not a time', 'not a uuid']),
      encodeCursor('case_list', {}, [42]),
      encodeCursor('case_list', {}, ['2025-01-01T00:00:00.000000Z', 'not a uuid']),
      encodeCursor('case_list', {}, ['2025-02-30T00:00:00.000000Z', crypto.randomUUID()]),
      encodeCursor('case_list', {}, ['2025-01-01T25:00:00.000000Z', crypto.randomUUID()]),
      encodeCursor('case_list', {}, ['2025-01-01T00:00:00.000000Z', crypto.randomUUID(), 'extra']),
      'x'.repeat(513),
    ];
    for (const cursor of bad) {
      const env = await list({ cursor });
      expect(errorCode(env), cursor).toBe('invalid_args');
      expect(env.message, cursor).toMatch(/cursor/);
    }
  });

  it('refuses a cursor reused with other filters, naming the cursor', async () => {
    const first = await page({ practice_area: 'permit', limit: 1 });
    expect(first.next_cursor).not.toBeNull();
    const env = await list({ practice_area: 'plan', limit: 1, cursor: first.next_cursor });
    expect(errorCode(env)).toBe('invalid_args');
    expect(env.ok ? null : env.error.details).toEqual({
      issues: [{ path: 'cursor', message: 'issued for other arguments' }],
    });
    // The same filters with another limit continue the same list.
    const next = await page({ practice_area: 'permit', limit: 5, cursor: first.next_cursor });
    expect(next.items.map((c) => c.practice_area)).toEqual(['permits']);
  });

  it('is granted to every agent, read-only, and writes no audit row', async () => {
    const [before] = await s.db.db.select({ n: sql<number>`count(*)::int` }).from(auditLog);
    for (const agent of ['ceo', 'analyst', 'researcher', 'writer', 'qa'] as const) {
      const env = await s.call(agent, 'case_list', { limit: 1 });
      expect(env.ok, agent).toBe(true);
    }
    const [after] = await s.db.db.select({ n: sql<number>`count(*)::int` }).from(auditLog);
    expect(after?.n).toBe(before?.n);
  });

  it('refuses a caller without the grant with tool_not_granted (every real agent holds it, so via the kernel)', async () => {
    const tool = buildRegistry(tools).get('case_list');
    if (tool === undefined) throw new Error('case_list is not registered');
    const env = await callTool({
      tool,
      args: {},
      grants: new Set(['case_get']),
      ctx: toolContext({ db: s.db.db, kv: s.kv }, { agent: 'outsider', requestId: 'req-grant' }),
    });
    expect(errorCode(env)).toBe('tool_not_granted');
  });

  it('refuses unknown filters with the nearest name', async () => {
    const env = await list({ stauts: 'open' });
    expect(errorCode(env)).toBe('invalid_args');
    expect(env.message).toMatch(/did you mean "status"/);
    expect(errorCode(await list({ status: 'closed' }))).toBe('invalid_args');
  });
});
