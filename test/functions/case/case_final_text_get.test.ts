// case_final_text_get through the official MCP client: "empty" until a final text exists (written directly in
// the database, standing in for the later ingest tool), then ok; not_found, bad input, grants, no audit row.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../../src/db/schema/audit_log.ts';
import { cases } from '../../../src/db/schema/cases.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../../harness/server.ts';
import { caseMaker } from './_case.ts';

interface FinalText {
  case_id: string;
  case_number: string;
  final_text: string | null;
  ingested_at?: string | null;
}

describe('case_final_text_get', () => {
  let s: TestServer;
  const create = caseMaker(() => s, 'CF');
  const auditCount = async () =>
    (await s.db.db.select({ n: sql<number>`count(*)::int` }).from(auditLog))[0]?.n ?? 0;

  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.close());

  it('is "empty" (success, not an error) until a final text exists, then returns it', async () => {
    const c = await create();
    const audits = await auditCount();
    const before = await s.call('writer', 'case_final_text_get', { case_id: c.id });
    expect(before.ok).toBe(true);
    expect(before.status).toBe('empty');
    expect(expectOk<FinalText>(before)).toEqual({
      case_id: c.id,
      case_number: c.case_number,
      final_text: null,
      ingested_at: null,
    });
    expect(before.message).toMatch(/no final decision text/);

    const text = 'החלטה\n\nהערר נדחה.\n"ציטוט" [1, 2] null';
    const at = new Date('2025-06-01T10:00:00.000Z');
    await s.db.db.update(cases).set({ finalText: text, finalTextAt: at }).where(eq(cases.id, c.id));
    const after = await s.call('qa', 'case_final_text_get', { case_id: c.id });
    expect(after.status).toBe('ok');
    expect(expectOk<FinalText>(after)).toEqual({
      case_id: c.id,
      case_number: c.case_number,
      final_text: text,
      ingested_at: at.toISOString(),
    });
    expect(await auditCount()).toBe(audits);
  });

  it('returns an empty string text as ok (it exists), not as empty', async () => {
    const c = await create();
    await s.db.db.update(cases).set({ finalText: '' }).where(eq(cases.id, c.id));
    const env = await s.call('ceo', 'case_final_text_get', { case_id: c.id });
    expect(env.status).toBe('ok');
    expect(expectOk<FinalText>(env)).toMatchObject({ final_text: '', ingested_at: null });
  });

  it('answers not_found for an unknown id and for a deleted case, even one with a final text', async () => {
    expect(errorCode(await s.call('ceo', 'case_final_text_get', { case_id: crypto.randomUUID() }))).toBe(
      'not_found',
    );
    const c = await create();
    await s.db.db.update(cases).set({ finalText: 'סופי' }).where(eq(cases.id, c.id));
    expectOk(await s.call('ceo', 'case_delete', { case_id: c.id, owner_ack: true, reason: 'r' }));
    expect(errorCode(await s.call('ceo', 'case_final_text_get', { case_id: c.id }))).toBe('not_found');
  });

  it('refuses bad input with invalid_args', async () => {
    const c = await create();
    for (const args of [{}, { case_id: 'nope' }, { case_id: c.id, page: 1 }, { id: c.id }]) {
      expect(errorCode(await s.call('ceo', 'case_final_text_get', args)), JSON.stringify(args)).toBe(
        'invalid_args',
      );
    }
  });

  it('refuses agents without the grant (tool_not_granted)', async () => {
    const c = await create();
    for (const agent of ['researcher', 'analyst'] as const) {
      const env = await s.call(agent, 'case_final_text_get', { case_id: c.id });
      expect(errorCode(env), agent).toBe('tool_not_granted');
      expect(env.ok ? undefined : env.error.details).toEqual({
        agent,
        tool: 'case_final_text_get',
        granted_to: ['ceo', 'qa', 'writer'],
      });
      // The hint says whom to hand the step to.
      expect(env.ok ? '' : env.error.hint).toMatch(/ceo or qa or writer/);
    }
    for (const agent of ['ceo', 'writer', 'qa'] as const) {
      expect((await s.call(agent, 'case_final_text_get', { case_id: c.id })).ok, agent).toBe(true);
    }
  });
});
