// C1 through the official client on both protocol eras: one envelope as structuredContent mirrored by
// one JSON text block, isError exactly for status "error", tool errors vs JSON-RPC errors, no leaks.
import type { Client } from '@modelcontextprotocol/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { toolList as tools } from '../../functions/index.ts';
import { defineTool } from '../../src/contract/define.ts';
import type { Envelope } from '../../src/contract/envelope.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

const SECRET_TABLE = 'secret_ledger_table_zq';

// A tool whose SQL fails: the caller must see `internal` and a request id, never the SQL or the table.
const probe_failure_run = defineTool({
  name: 'probe_failure_run',
  description:
    'Test fixture: runs a query against a table that does not exist, to provoke an internal error.',
  input: { note: z.string().max(50).optional().describe('Ignored') },
  output: z.object({ unreachable: z.boolean() }),
  mutates: false,
  async run({ ctx }) {
    await ctx.db.execute(sql.raw(`select secret_column from ${SECRET_TABLE}`));
    return { unreachable: true };
  },
});

type CallResult = Awaited<ReturnType<Client['callTool']>>;

/** Checks the C1 shape of one tool result and returns its envelope. */
function envelopeOf(result: CallResult): Envelope {
  const structured = result.structuredContent as unknown as Envelope;
  expect(result.content).toHaveLength(1);
  const block = result.content[0];
  expect(block?.type).toBe('text');
  // The text block is the same JSON as structuredContent, not a summary of it.
  expect(JSON.parse(block?.type === 'text' ? block.text : 'null')).toEqual(structured);
  expect(result.isError === true).toBe(structured.status === 'error');
  expect(structured.ok).toBe(structured.status !== 'error');
  expect(typeof structured.message).toBe('string');
  if (structured.ok) {
    expect(['ok', 'empty']).toContain(structured.status);
    expect(structured).toHaveProperty('data');
    expect(structured).not.toHaveProperty('error');
  } else {
    expect(structured).not.toHaveProperty('data');
    expect(typeof structured.error.code).toBe('string');
    expect(structured.error.message.length).toBeGreaterThan(0);
    expect(structured.error.hint?.length ?? 0).toBeGreaterThan(0);
  }
  return structured;
}

const rawHeaders = (token: string) => ({
  Authorization: `Bearer ${token}`,
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
});

describe('C1 envelope', () => {
  let s: TestServer;
  const logLines: string[] = [];
  beforeAll(async () => {
    s = await startTestServer({
      tools: [...tools, probe_failure_run],
      grants: { ceo: ['probe_failure_run'] },
      logLines,
    });
  });
  afterAll(async () => s?.close());

  describe.each(['legacy', 'modern'] as const)('%s era', (era) => {
    let client: Client;
    let caseId: string;
    beforeAll(async () => {
      client = await s.connect('ceo', { era });
      expect(client.getProtocolEra()).toBe(era);
      const created = envelopeOf(
        await client.callTool({
          name: 'case_create',
          arguments: { case_number: `ENV-${era}-1`, title: 'מעטפת' },
        }),
      );
      if (!created.ok) throw new Error(JSON.stringify(created));
      caseId = (created.data as { case: { id: string } }).case.id;
    });

    it('a success is status ok with data, mirrored as one JSON text block', async () => {
      const env = envelopeOf(await client.callTool({ name: 'case_get', arguments: { case_id: caseId } }));
      expect(env).toMatchObject({ ok: true, status: 'ok', data: { case: { id: caseId, title: 'מעטפת' } } });
    });

    it('nothing to return is status empty (a success), not an error', async () => {
      const finalText = envelopeOf(
        await client.callTool({ name: 'case_final_text_get', arguments: { case_id: caseId } }),
      );
      expect(finalText).toMatchObject({ ok: true, status: 'empty', data: { final_text: null } });
      const list = envelopeOf(
        await client.callTool({ name: 'case_list', arguments: { text: `no-such-case-${era}` } }),
      );
      expect(list).toMatchObject({ ok: true, status: 'empty', data: { items: [], next_cursor: null } });
    });

    it('a named entity that does not exist is not_found, an error with a hint', async () => {
      const missing = crypto.randomUUID();
      const result = await client.callTool({ name: 'case_get', arguments: { case_id: missing } });
      expect(result.isError).toBe(true);
      const env = envelopeOf(result);
      expect(env).toMatchObject({ ok: false, status: 'error', error: { code: 'not_found' } });
      expect(JSON.stringify(env)).toContain(missing);
    });

    it('argument validation failures are tool results (isError, invalid_args), not JSON-RPC errors', async () => {
      const badId = await client.callTool({ name: 'case_get', arguments: { case_id: 'not-a-uuid' } });
      const env = envelopeOf(badId);
      expect(badId.isError).toBe(true);
      expect(env).toMatchObject({ status: 'error', error: { code: 'invalid_args' } });
      expect(JSON.stringify(env)).toContain('case_id');

      const missingRequired = envelopeOf(
        await client.callTool({ name: 'case_create', arguments: { title: 'x' } }),
      );
      expect(missingRequired).toMatchObject({ status: 'error', error: { code: 'invalid_args' } });
      expect(missingRequired.ok ? '' : missingRequired.error.message).toContain('case_number');
    });

    it('an unknown tool is a JSON-RPC error -32602, not a tool result', async () => {
      const call = client.callTool({ name: 'case_frobnicate', arguments: {} });
      await expect(call).rejects.toMatchObject({ code: -32602 });
      await expect(call).rejects.toThrow(/case_frobnicate/);
    });

    it('an internal failure is code internal with the request id; SQL and table names stay in the log', async () => {
      const requestId = `envelope-internal-${era}`;
      const tagged = await s.connect('ceo', { era, headers: { 'x-request-id': requestId } });
      const result = await tagged.callTool({ name: 'probe_failure_run', arguments: {} });
      const env = envelopeOf(result);
      expect(env).toMatchObject({
        status: 'error',
        error: { code: 'internal', details: { request_id: requestId } },
      });
      expect(env.message).toContain(requestId);
      const wire = JSON.stringify(result);
      for (const secret of [SECRET_TABLE, 'secret_column', 'select', 'relation', 'at ', '.ts:']) {
        expect(wire).not.toContain(secret);
      }
      // The detail is not lost: it is in the server's log under the same request id.
      const logged = logLines.filter((l) => l.includes(requestId) && l.includes('internal error'));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain(SECRET_TABLE);
    });
  });

  describe('malformed JSON-RPC is a JSON-RPC error', () => {
    const post = (body: string) =>
      s.fetch('/mcp', { method: 'POST', headers: rawHeaders(s.tokens.ceo), body });

    it('a body that is not JSON is a parse error (-32700)', async () => {
      const res = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    });

    it('JSON that is not a JSON-RPC message is an invalid request (-32600)', async () => {
      for (const body of ['{"hello": "world"}', '[]', '42']) {
        const res = await post(body);
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
      }
    });

    it('an unknown method is method-not-found (-32601)', async () => {
      const res = await post(
        JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'cases/frobnicate', params: {} }),
      );
      const text = await res.text();
      // The stateless 2025-era answer may come as one SSE frame; the JSON-RPC error is inside it either way.
      const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '');
      expect(JSON.parse(json)).toMatchObject({ id: 7, error: { code: -32601 } });
    });

    it('the transport rejections are logged through the app logger, not printed', () => {
      expect(logLines.some((l) => l.includes('"msg":"mcp transport"'))).toBe(true);
    });
  });
});
