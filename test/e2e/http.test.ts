// The HTTP level with plain fetch: auth challenges, Origin and Host checks, the body cap (before any parsing,
// with and without Content-Length), 405 for the methods the transport does not serve, the plain JSON route's
// statuses for every error code it can return, the one refusal shape of each route family (src/http/errors.ts),
// Retry-After, request ids and /healthz. Every server here listens on a loopback port (`socket: true`): the
// subject is what goes over the wire.
import { request } from 'node:http';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolList as tools } from '../../functions/index.ts';
import { defineTool } from '../../src/contract/define.ts';
import type { Envelope } from '../../src/contract/envelope.ts';
import { errorCatalogue } from '../../src/contract/errors.ts';
import { cases } from '../../src/db/schema/cases.ts';
import { latchTool } from '../harness/fixtures.ts';
import { expectOk, startTestServer, type TestServer } from '../harness/server.ts';

/**
 * A refusal in the one shape of its route family: the tool envelope's error outside /mcp, a JSON-RPC error with
 * `data: {code, hint?, details?}` on /mcp; the HTTP status is the code's; nothing else in the body.
 */
async function expectRefusal(
  res: Response,
  status: number,
  code: keyof typeof errorCatalogue,
  // The JSON-RPC code: -32000 for transport refusals; the SDK keeps -32700 (parse error) and -32600.
  rpcCode = -32000,
) {
  expect(errorCatalogue[code].http).toBe(status);
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await res.json()) as Record<string, unknown>;
  const isMcp = new URL(res.url).pathname === '/mcp';
  const error = body.error as Record<string, unknown>;
  if (isMcp) {
    expect(Object.keys(body).sort()).toEqual(['error', 'id', 'jsonrpc']);
    expect(error).toMatchObject({ code: rpcCode, message: expect.any(String), data: { code } });
    expect(Object.keys(error.data as object).every((k) => ['code', 'hint', 'details'].includes(k))).toBe(
      true,
    );
  } else {
    expect(Object.keys(body).sort()).toEqual(['error', 'message', 'ok', 'status']);
    expect(body).toMatchObject({ ok: false, status: 'error', error: { code, message: body.message } });
    expect(Object.keys(error).every((k) => ['code', 'message', 'hint', 'details'].includes(k))).toBe(true);
  }
  return body;
}

const MAX_BODY = 4096;
const MAX_UPLOAD_BODY = 3 * MAX_BODY;

const latch = latchTool();

const probe_failure_run = defineTool({
  name: 'probe_failure_run',
  description:
    'Test fixture: runs a query against a table that does not exist, to provoke an internal error.',
  input: {},
  output: z.object({}),
  mutates: false,
  async run({ ctx }) {
    await ctx.db.execute(sql.raw('select 1 from hidden_internal_table'));
    return {};
  },
});

// Takes file content (takesUpload): the agents granted it get the upload body cap.
const probe_blob_get = defineTool({
  name: 'probe_blob_get',
  description: 'Test fixture: takes a large text, as an upload tool does, and returns its length.',
  input: { content: z.string().max(100_000).describe('Any text') },
  output: z.object({ length: z.int() }),
  mutates: false,
  takesUpload: true,
  async run({ input }) {
    return { length: input.content.length };
  },
});

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fetch', version: '1' } },
});
const listTools = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
const mcpHeaders = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/** A body sent without Content-Length (Transfer-Encoding: chunked), in pieces. */
function chunked(text: string, pieces = 4): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const size = Math.ceil(bytes.length / pieces);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

describe('HTTP level', () => {
  let s: TestServer;
  const auth = (agent: 'ceo' | 'analyst' | 'qa' = 'ceo') => ({ Authorization: `Bearer ${s.tokens[agent]}` });
  const v1 = (
    tool: string,
    body: unknown,
    headers: Record<string, string> = {},
    agent: 'ceo' | 'analyst' = 'ceo',
  ) =>
    fetch(`${s.url}/v1/tools/${tool}`, {
      method: 'POST',
      headers: { ...auth(agent), 'Content-Type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const caseCount = async (caseNumber: string) =>
    (await s.db.db.select().from(cases).where(eq(cases.caseNumber, caseNumber))).length;

  beforeAll(async () => {
    s = await startTestServer({
      socket: true,
      tools: [...tools, latch.tool, probe_failure_run],
      grants: { ceo: ['probe_latch_run', 'probe_failure_run'] },
      env: {
        ALLOWED_ORIGINS: 'app.example, chambers.example',
        MAX_BODY_BYTES: String(MAX_BODY),
        // The ceo and analyst hold upload tools: one cap for all here; the upload cap has its own suite.
        MAX_UPLOAD_BODY_BYTES: String(MAX_BODY),
      },
    });
  });
  afterAll(async () => s?.close());

  describe('401 with WWW-Authenticate', () => {
    const attempts: [string, Record<string, string>][] = [
      ['no Authorization header', {}],
      ['an empty bearer', { Authorization: 'Bearer ' }],
      [
        'a token that was never minted',
        { Authorization: 'Bearer chm_0000000000000000000000000000000000000000000' },
      ],
      ['a malformed token', { Authorization: 'Bearer not-a-token' }],
      ['another scheme', { Authorization: 'Basic Y2VvOmNlbw==' }],
    ];
    it.each(attempts)('/mcp refuses %s', async (_, headers) => {
      const res = await fetch(s.mcpUrl, {
        method: 'POST',
        headers: { ...mcpHeaders, ...headers },
        body: initialize,
      });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="chambers", error="invalid_token"/);
      await expectRefusal(res, 401, 'unauthorized');
    });
    it.each(attempts)('/v1/tools refuses %s', async (_, headers) => {
      const res = await fetch(`${s.url}/v1/tools/case_list`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: '{}',
      });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
      await expectRefusal(res, 401, 'unauthorized');
      const list = await fetch(`${s.url}/v1/tools`, { headers });
      expect(list.headers.get('www-authenticate')).toMatch(/^Bearer /);
      await expectRefusal(list, 401, 'unauthorized');
    });
    it.each(['legacy', 'modern'] as const)(
      'the official client cannot connect with a bad token [%s era]',
      async (era) => {
        const connecting = s.connect('ceo', {
          era,
          headers: { Authorization: 'Bearer chm_0000000000000000000000000000000000000000000' },
        });
        await expect(connecting).rejects.toThrow(/401|unauthori[sz]ed|invalid_token/i);
      },
    );
    it('a valid token passes', async () => {
      const res = await fetch(s.mcpUrl, {
        method: 'POST',
        headers: { ...mcpHeaders, ...auth() },
        body: initialize,
      });
      expect(res.status).toBe(200);
    });
  });

  describe('Origin', () => {
    it.each(['https://evil.example', 'http://app.example.evil.example', 'null'])(
      '403 for Origin %s, even with a valid token',
      async (origin) => {
        const res = await fetch(s.mcpUrl, {
          method: 'POST',
          headers: { ...mcpHeaders, ...auth(), Origin: origin },
          body: listTools,
        });
        await expectRefusal(res, 403, 'origin_not_allowed');
        await expectRefusal(await v1('case_list', {}, { Origin: origin }), 403, 'origin_not_allowed');
      },
    );
    it.each([
      'https://app.example',
      'https://chambers.example',
      'http://localhost:5173',
      'http://127.0.0.1:8080',
    ])('200 for the allowed Origin %s', async (origin) => {
      const res = await fetch(s.mcpUrl, {
        method: 'POST',
        headers: { ...mcpHeaders, ...auth(), Origin: origin },
        body: listTools,
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('case_create');
    });
  });

  describe('413 past the body cap, before parsing', () => {
    const oversized = 'x'.repeat(MAX_BODY + 1);
    const tooBigCall = (caseNumber: string) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: {
          name: 'case_create',
          arguments: { case_number: caseNumber, title: 't', notes: 'n'.repeat(MAX_BODY) },
        },
      });

    it('an oversized body that is not even JSON is 413, not a parse error', async () => {
      const post = (url: string) =>
        fetch(url, { method: 'POST', headers: { ...mcpHeaders, ...auth() }, body: oversized });
      // /mcp answers as JSON-RPC, like its other transport rejections; /v1 answers with the envelope.
      const mcp = await expectRefusal(await post(s.mcpUrl), 413, 'payload_too_large');
      expect(mcp).toMatchObject({ id: null, error: { data: { details: { max_bytes: MAX_BODY } } } });
      const json = await expectRefusal(await post(`${s.url}/v1/tools/case_create`), 413, 'payload_too_large');
      expect(json).toMatchObject({ error: { details: { max_bytes: MAX_BODY } } });
    });

    it.each(['legacy', 'modern'] as const)(
      'through the official client [%s era]: an oversized call fails with HTTP 413 and never runs',
      async (era) => {
        const client = await s.connect('ceo', { era });
        const call = client.callTool({
          name: 'case_create',
          arguments: { case_number: `BIG-${era}`, title: 't', notes: 'n'.repeat(MAX_BODY) },
        });
        await expect(call).rejects.toThrow(/413|exceeds/);
        expect(await caseCount(`BIG-${era}`)).toBe(0);
        // The connection is still usable for a call of normal size.
        expect((await client.callTool({ name: 'case_list', arguments: { limit: 1 } })).isError).toBeFalsy();
      },
    );

    it('an oversized tools/call is refused and never runs', async () => {
      const res = await fetch(s.mcpUrl, {
        method: 'POST',
        headers: { ...mcpHeaders, ...auth() },
        body: tooBigCall('BIG-1'),
      });
      expect(res.status).toBe(413);
      expect(await caseCount('BIG-1')).toBe(0);
    });

    it('a chunked body without Content-Length is counted as it streams and refused past the cap', async () => {
      const res = await fetch(s.mcpUrl, {
        method: 'POST',
        headers: { ...mcpHeaders, ...auth() },
        body: chunked(tooBigCall('BIG-2')),
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(await caseCount('BIG-2')).toBe(0);
      const json = await fetch(`${s.url}/v1/tools/case_create`, {
        method: 'POST',
        headers: { ...auth(), 'Content-Type': 'application/json' },
        body: chunked(JSON.stringify({ case_number: 'BIG-3', title: 't', notes: 'n'.repeat(MAX_BODY) })),
        duplex: 'half',
      } as RequestInit);
      expect(json.status).toBe(413);
      expect(await caseCount('BIG-3')).toBe(0);
    });

    it('a chunked body under the cap goes through', async () => {
      const res = await fetch(`${s.url}/v1/tools/case_create`, {
        method: 'POST',
        headers: { ...auth(), 'Content-Type': 'application/json' },
        body: chunked(JSON.stringify({ case_number: 'SMALL-CHUNKED', title: 'קטן' })),
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(200);
      expect(await caseCount('SMALL-CHUNKED')).toBe(1);
      const mcp = await fetch(s.mcpUrl, {
        method: 'POST',
        headers: { ...mcpHeaders, ...auth() },
        body: chunked(listTools),
        duplex: 'half',
      } as RequestInit);
      expect(mcp.status).toBe(200);
      expect(await mcp.text()).toContain('case_create');
    });
  });

  describe('405 for methods the transport does not serve, answered at once', () => {
    it.each(['GET', 'DELETE', 'PUT', 'PATCH'])('%s /mcp', async (method) => {
      // A GET that opened an SSE stream would never end: the timeout turns that into a failure.
      const res = await fetch(s.mcpUrl, {
        method,
        headers: { ...auth(), Accept: 'text/event-stream' },
        signal: AbortSignal.timeout(2000),
      });
      expect(res.headers.get('allow')).toBe('POST');
      await expectRefusal(res, 405, 'method_not_allowed');
    });
  });

  describe('the refusals the MCP SDK makes carry our code too', () => {
    it('415 for a body that is not JSON, 406 for a wrong Accept, 400 for bad JSON or a non-MCP message', async () => {
      const post = (headers: Record<string, string>, body: string) =>
        fetch(s.mcpUrl, { method: 'POST', headers: { ...mcpHeaders, ...auth(), ...headers }, body });
      await expectRefusal(
        await post({ 'Content-Type': 'text/plain' }, listTools),
        415,
        'unsupported_media_type',
      );
      await expectRefusal(await post({ Accept: 'text/html' }, initialize), 406, 'not_acceptable');
      await expectRefusal(await post({}, '{"jsonrpc": '), 400, 'invalid_request', -32700);
      await expectRefusal(await post({}, '{"hello": "world"}'), 400, 'invalid_request', -32600);
    });
  });

  describe('every other route', () => {
    it('404 route_not_found for an unknown path, in the envelope shape', async () => {
      const res = await fetch(`${s.url}/v2/nothing`, { headers: auth() });
      const body = await expectRefusal(res, 404, 'route_not_found');
      expect(body.message).toBe('No route GET /v2/nothing.');
    });
  });

  describe('POST /v1/tools/:name: the same envelope with HTTP statuses', () => {
    const expectStatus = async (res: Response, status: number, code?: string) => {
      const body = (await res.json()) as Envelope;
      expect({ status: res.status, code: body.ok ? undefined : body.error.code }).toEqual({ status, code });
      if (code !== undefined) expect(errorCatalogue[code as keyof typeof errorCatalogue].http).toBe(status);
      return body;
    };

    it('200 with the envelope, the same as structuredContent over /mcp', async () => {
      const created = await expectStatus(
        await v1('case_create', { case_number: 'V1-1', title: 'JSON' }),
        200,
      );
      const id = expectOk<{ case: { id: string } }>(created).case.id;
      const viaJson = await expectStatus(await v1('case_get', { case_id: id }), 200);
      const viaMcp = await s.call('ceo', 'case_get', { case_id: id });
      expect(viaJson).toEqual(viaMcp);
      // "empty" is a success too.
      const none = await expectStatus(await v1('case_list', { text: 'nothing-matches-this' }), 200);
      expect(none.status).toBe('empty');
      // An empty body is no arguments.
      await expectStatus(await v1('case_list', ''), 200);
    });

    it('400 invalid_args: bad values, unknown names, a body that is not JSON or not an object', async () => {
      await expectStatus(await v1('case_get', { case_id: 'x' }), 400, 'invalid_args');
      const typo = await expectStatus(
        await v1('case_create', { case_number: 'V1-2', titel: 't' }),
        400,
        'invalid_args',
      );
      expect(JSON.stringify(typo)).toContain('did you mean \\"title\\"');
      await expectStatus(await v1('case_list', { limit: '020' }), 400, 'invalid_args');
      await expectStatus(await v1('case_list', '{"limit": '), 400, 'invalid_args');
      await expectStatus(await v1('case_list', '[1, 2]'), 400, 'invalid_args');
    });

    it('403 tool_not_granted and owner_gate_required', async () => {
      await expectStatus(
        await v1('case_create', { case_number: 'V1-3', title: 't' }, {}, 'analyst'),
        403,
        'tool_not_granted',
      );
      expect(await caseCount('V1-3')).toBe(0);
      const created = await s.callJson('ceo', 'case_create', { case_number: 'V1-4', title: 't' });
      const id = expectOk<{ case: { id: string } }>(created.body).case.id;
      await expectStatus(await v1('case_delete', { case_id: id }), 403, 'owner_gate_required');
    });

    it('404 not_found for a missing case and for an unknown tool', async () => {
      await expectStatus(await v1('case_get', { case_id: crypto.randomUUID() }), 404, 'not_found');
      const unknown = await expectStatus(await v1('case_frobnicate', {}), 404, 'not_found');
      expect(JSON.stringify(unknown)).toContain('case_frobnicate');
    });

    it('409 invalid_state for a change to an archived case', async () => {
      const created = await s.callJson('ceo', 'case_create', { case_number: 'V1-5', title: 't' });
      const id = expectOk<{ case: { id: string } }>(created.body).case.id;
      await expectStatus(await v1('case_update', { case_id: id, status: 'archived' }), 200);
      await expectStatus(await v1('case_update', { case_id: id, title: 'אחר' }), 409, 'invalid_state');
    });

    it('409 in_progress while the same call runs, then 200 replayed', async () => {
      latch.reset();
      const first = v1('probe_latch_run', { key: 'v1-latch' });
      await latch.entered();
      const dupRes = await v1('probe_latch_run', { key: 'v1-latch' });
      expect(dupRes.headers.get('retry-after')).toBe('1');
      const dup = await expectStatus(dupRes, 409, 'in_progress');
      expect(dup.ok ? null : dup.error.details).toMatchObject({ retry_after_ms: expect.any(Number) });
      latch.release();
      await expectStatus(await first, 200);
      const replay = await expectStatus(await v1('probe_latch_run', { key: 'v1-latch' }), 200);
      expect(replay).toMatchObject({ ok: true, replayed: true });
    });

    it('422 idempotency_key_reuse for the same case number with other details', async () => {
      await expectStatus(await v1('case_create', { case_number: 'V1-6', title: 'א' }), 200);
      await expectStatus(
        await v1('case_create', { case_number: 'V1-6', title: 'ב' }),
        422,
        'idempotency_key_reuse',
      );
    });

    it('415 unsupported_media_type for anything but application/json, before the body is read', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json-patch+json']) {
        await expectStatus(
          await v1('case_create', { case_number: 'V1-7', title: 't' }, { 'Content-Type': type }),
          415,
          'unsupported_media_type',
        );
      }
      // No Content-Type at all (a byte body carries none).
      const res = await fetch(`${s.url}/v1/tools/case_list`, {
        method: 'POST',
        headers: auth(),
        body: new TextEncoder().encode('{}'),
      });
      await expectStatus(res, 415, 'unsupported_media_type');
      expect(await caseCount('V1-7')).toBe(0);
      // /mcp refuses the same, as a JSON-RPC error.
      const mcp = await fetch(s.mcpUrl, {
        method: 'POST',
        headers: { ...auth(), 'Content-Type': 'text/plain', Accept: mcpHeaders.Accept },
        body: listTools,
      });
      await expectRefusal(mcp, 415, 'unsupported_media_type');
      // A charset parameter is still JSON.
      await expectStatus(
        await v1('case_list', {}, { 'Content-Type': 'application/json; charset=utf-8' }),
        200,
      );
    });

    it('500 internal with the request id and no detail', async () => {
      const res = await v1('probe_failure_run', {}, { 'x-request-id': 'v1-internal-1' });
      const body = await expectStatus(res, 500, 'internal');
      expect(res.headers.get('x-request-id')).toBe('v1-internal-1');
      expect(body).toMatchObject({ error: { details: { request_id: 'v1-internal-1' } } });
      expect(JSON.stringify(body)).not.toContain('hidden_internal_table');
    });

    it('GET /v1/tools lists the caller’s tools', async () => {
      const res = await fetch(`${s.url}/v1/tools`, { headers: auth('qa') });
      expect(res.status).toBe(200);
      const { tools: listed } = (await res.json()) as { tools: { name: string }[] };
      expect(listed.map((t) => t.name).filter((n) => n.startsWith('case_'))).toEqual([
        'case_final_text_get',
        'case_get',
        'case_list',
      ]);
      expect(listed.map((t) => t.name)).toContain('hai_proof');
      expect(listed.map((t) => t.name)).not.toContain('hai_open_mission');
    });
  });

  describe('request ids', () => {
    it('a well-formed x-request-id is echoed; anything else is replaced by a fresh one', async () => {
      const given = await v1('case_list', {}, { 'x-request-id': 'trace-abc.123' });
      expect(given.headers.get('x-request-id')).toBe('trace-abc.123');
      const bad = await v1('case_list', {}, { 'x-request-id': 'no spaces allowed' });
      expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  it('/healthz reports the database and the KV store without a token', async () => {
    const res = await fetch(`${s.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, db: 'up', kv: { status: 'up', kind: 'postgres' } });
  });
});

describe('ALLOWED_HOSTS', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ socket: true, env: { ALLOWED_HOSTS: 'chambers.example' } });
  });
  afterAll(async () => s?.close());

  /** A request with a Host header of our choosing (fetch sets Host itself). */
  const withHost = (path: string, host: string) =>
    new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const { port } = new URL(s.url);
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path,
          method: 'POST',
          headers: {
            Host: host,
            Authorization: `Bearer ${s.tokens.ceo}`,
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          // A successful /mcp answer may be an SSE stream: only refusals are parsed.
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: res.statusCode === 200 ? {} : JSON.parse(text) }),
          );
        },
      );
      req.on('error', reject);
      req.end(path === '/mcp' ? listTools : '{}');
    });

  it('403 host_not_allowed for another Host, in each route family’s shape; listed and localhost hosts pass', async () => {
    const json = await withHost('/v1/tools/case_list', 'evil.example');
    expect(json).toMatchObject({ status: 403, body: { ok: false, error: { code: 'host_not_allowed' } } });
    const mcp = await withHost('/mcp', 'evil.example:8787');
    expect(mcp).toMatchObject({
      status: 403,
      body: { jsonrpc: '2.0', error: { data: { code: 'host_not_allowed' } } },
    });
    expect((await withHost('/v1/tools/case_list', 'chambers.example')).status).toBe(200);
    expect((await withHost('/mcp', 'localhost:8787')).status).toBe(200);
  });
});

describe('rate limiting', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ socket: true, env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '2' } });
  });
  afterAll(async () => s?.close());

  it('past the burst: 429 rate_limited with Retry-After on /v1, an isError result on /mcp; per agent', async () => {
    const post = () =>
      fetch(`${s.url}/v1/tools/case_list`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${s.tokens.qa}`, 'Content-Type': 'application/json' },
        body: '{}',
      });
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(200);
    const limited = await post();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await limited.json()).toMatchObject({
      error: { code: 'rate_limited', details: { retry_after_ms: expect.any(Number) } },
    });

    const client = await s.connect('qa', { era: 'modern' });
    const result = await client.callTool({ name: 'case_list', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: 'rate_limited' } });

    // Another agent has its own bucket.
    const other = await s.call('writer', 'case_list', {});
    expect(other.ok).toBe(true);
  });
});

describe('the upload body cap', () => {
  let u: TestServer;
  beforeAll(async () => {
    u = await startTestServer({
      socket: true,
      tools: [...tools, probe_blob_get],
      grants: { analyst: ['probe_blob_get'] },
      env: { MAX_BODY_BYTES: String(MAX_BODY), MAX_UPLOAD_BODY_BYTES: String(MAX_UPLOAD_BODY) },
    });
  });
  afterAll(async () => u?.close());

  it('an agent granted an upload tool gets the upload cap; every other agent keeps the small one', async () => {
    const blob = (size: number) => ({ content: 'b'.repeat(size) });
    const post = (agent: 'analyst' | 'qa', body: unknown) =>
      fetch(`${u.url}/v1/tools/probe_blob_get`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${u.tokens[agent]}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const uploaded = await post('analyst', blob(2 * MAX_BODY));
    expect(uploaded.status).toBe(200);
    expect(((await uploaded.json()) as { data: unknown }).data).toEqual({ length: 2 * MAX_BODY });
    // The same body from qa (no upload tool granted) is refused before it is parsed.
    const small = await post('qa', blob(2 * MAX_BODY));
    expect(small.status).toBe(413);
    expect(await small.json()).toMatchObject({ error: { details: { max_bytes: MAX_BODY } } });
    const tooBig = await post('analyst', blob(MAX_UPLOAD_BODY));
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toMatchObject({
      error: { code: 'payload_too_large', details: { max_bytes: MAX_UPLOAD_BODY } },
    });
  });
});
