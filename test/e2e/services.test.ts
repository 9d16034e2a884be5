// The real services end to end (local PostgreSQL, Redis behind the Upstash REST bridge), and what a
// caller sees when a backing store goes away: dependency_unavailable with nothing written.
import type { Client } from '@modelcontextprotocol/client';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/contract/envelope.ts';
import { auditLog } from '../../src/db/schema/audit_log.ts';
import { cases } from '../../src/db/schema/cases.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../harness/server.ts';
import { describeWithService } from '../harness/services.ts';

const envelopeOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  result.structuredContent as unknown as Envelope;

type Stack = { db: 'pglite' | 'postgres'; kv: 'postgres' | 'upstash' };

/** One case's whole life through the official client, on the given stack and era. */
function lifecycleSuite(stack: Stack) {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(stack);
  });
  afterAll(async () => s?.close());

  it('/healthz names the stores in use', async () => {
    const res = await s.fetch('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, db: 'up', kv: { status: 'up', kind: stack.kv } });
  });

  it.each(['legacy', 'modern'] as const)(
    'create, read, list, update, delete a case [%s era]',
    async (era) => {
      const client = await s.connect('ceo', { era });
      const call = async (name: string, args: Record<string, unknown>) =>
        envelopeOf(await client.callTool({ name, arguments: args }));
      const number = `SVC-${stack.db}-${stack.kv}-${era}`;
      const created = expectOk<{ case: { id: string }; created: boolean }>(
        await call('case_create', {
          case_number: number,
          title: 'שירותים אמיתיים',
          committee: 'ועדה מקומית',
        }),
      );
      expect(created.created).toBe(true);
      const id = created.case.id;
      expect(await call('case_get', { case_id: id })).toMatchObject({
        ok: true,
        data: { case: { case_number: number, committee: 'ועדה מקומית', status: 'open' } },
      });
      expect(await call('case_list', { text: number })).toMatchObject({
        status: 'ok',
        data: { items: [{ id }] },
      });
      expect(await call('case_update', { case_id: id, status: 'drafting' })).toMatchObject({
        ok: true,
        data: { case: { status: 'drafting' }, changed: ['status'] },
      });
      expect(
        await call('outcome_set', { case_id: id, outcome: 'קבלה חלקית', owner_ack: true, reason: 'הוחלט' }),
      ).toMatchObject({ ok: true, data: { outcome: 'partial_acceptance', changed: true } });
      expect(await call('case_final_text_get', { case_id: id })).toMatchObject({ status: 'empty' });
      expect(
        await call('case_delete', { case_id: id, owner_ack: true, reason: 'ניקוי אחרי בדיקה' }),
      ).toMatchObject({ ok: true });
      expect(errorCode(await call('case_get', { case_id: id }))).toBe('not_found');
      expect(await call('case_list', { text: number })).toMatchObject({ status: 'empty' });
    },
  );
}

describe('lifecycle [pglite + postgres kv]', () => {
  lifecycleSuite({ db: 'pglite', kv: 'postgres' });
});

describeWithService('postgres', 'on the real services', () => {
  describeWithService('redis', 'lifecycle [postgres + upstash kv → redis]', () => {
    lifecycleSuite({ db: 'postgres', kv: 'upstash' });
  });
});

describeWithService('postgres', 'with the KV store down', () => {
  describeWithService('redis', 'dependency_unavailable [postgres + upstash kv, bridge stopped]', () => {
    let s: TestServer;
    let client: Client;
    let liveId: string;
    beforeAll(async () => {
      s = await startTestServer({ db: 'postgres', kv: 'upstash' });
      client = await s.connect('ceo', { era: 'modern' });
      // Before the outage: a case exists and the token is known.
      const env = envelopeOf(
        await client.callTool({ name: 'case_create', arguments: { case_number: 'DEP-live', title: 'לפני' } }),
      );
      liveId = expectOk<{ case: { id: string } }>(env).case.id;
      await s.bridge?.close();
    });
    afterAll(async () => s?.close());

    it('a mutating call is dependency_unavailable, retryable, and wrote no case', async () => {
      expect(s.bridge).toBeDefined();
      const requestId = 'dep-kv-down-1';
      const tagged = await s.connect('ceo', { era: 'legacy', headers: { 'x-request-id': requestId } });
      const result = await tagged.callTool({
        name: 'case_create',
        arguments: { case_number: 'DEP-new', title: 'בזמן תקלה' },
      });
      expect(result.isError).toBe(true);
      const env = envelopeOf(result);
      expect(env).toMatchObject({ status: 'error', error: { code: 'dependency_unavailable' } });
      expect(env.ok ? '' : (env.error.hint ?? '')).toMatch(/retry/i);
      // Nothing leaks about the store (URL, port, fetch error).
      expect(JSON.stringify(env)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|fetch failed|upstash/i);
      expect(await s.db.db.select().from(cases).where(eq(cases.caseNumber, 'DEP-new'))).toHaveLength(0);
      // The refused call is still accounted for in the audit log.
      const audit = await s.db.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.requestId, requestId), eq(auditLog.tool, 'case_create')));
      expect(audit).toMatchObject([{ outcome: 'error', errorCode: 'dependency_unavailable' }]);
    });

    it('the same over /v1 is HTTP 503', async () => {
      const res = await s.callJson('ceo', 'case_update', { case_id: liveId, title: 'שינוי' });
      expect(res.status).toBe(503);
      expect(errorCode(res.body)).toBe('dependency_unavailable');
      const row = await s.db.db.select().from(cases).where(eq(cases.id, liveId));
      expect(row[0]?.title).toBe('לפני');
    });

    it('reads, which need no KV store, still work', async () => {
      const env = envelopeOf(await client.callTool({ name: 'case_get', arguments: { case_id: liveId } }));
      expect(env).toMatchObject({ ok: true, data: { case: { title: 'לפני' } } });
    });

    it('/healthz says the KV store is down (503)', async () => {
      const res = await s.fetch('/healthz');
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({
        ok: false,
        db: 'up',
        kv: { status: 'down', kind: 'upstash' },
      });
    });
  });
});

describe('with the database down [pglite + postgres kv, database closed]', () => {
  let s: TestServer;
  let client: Client;
  beforeAll(async () => {
    s = await startTestServer();
    client = await s.connect('ceo', { era: 'legacy' });
    // One call first, so the token is in the auth cache and the request reaches the tool pipeline.
    expectOk(envelopeOf(await client.callTool({ name: 'case_list', arguments: {} })));
    await s.db.close();
  });
  afterAll(async () => s?.close());

  it('a mutating call is dependency_unavailable, not internal', async () => {
    const result = await client.callTool({
      name: 'case_create',
      arguments: { case_number: 'DB-down', title: 't' },
    });
    expect(result.isError).toBe(true);
    expect(envelopeOf(result)).toMatchObject({ error: { code: 'dependency_unavailable' } });
  });

  it('a read is dependency_unavailable too', async () => {
    const result = await client.callTool({ name: 'case_list', arguments: {} });
    expect(envelopeOf(result)).toMatchObject({ error: { code: 'dependency_unavailable' } });
  });

  it('a token not yet known cannot be checked: 503 dependency_unavailable, JSON-RPC on /mcp, envelope on /v1', async () => {
    const mcp = await s.fetch('/mcp', {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${s.tokens.writer}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(mcp.status).toBe(503);
    const rpc = await mcp.json();
    expect(rpc).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32000, data: { code: 'dependency_unavailable' } },
    });
    expect(JSON.stringify(rpc)).not.toMatch(/pglite|closed|agent_tokens/i);
    const json = await s.callJson('writer', 'case_list', {});
    expect(json.status).toBe(503);
    expect(errorCode(json.body)).toBe('dependency_unavailable');
  });

  it('/healthz says the database is down (503)', async () => {
    const res = await s.fetch('/healthz');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ ok: false, db: 'down' });
  });
});
