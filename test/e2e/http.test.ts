import { describe, expect, it } from 'vitest';
import {
  chunked,
  expectRefusal,
  httpSuiteServer,
  initialize,
  listTools,
  MAX_BODY,
  mcpHeaders,
} from './_http.ts';

describe('HTTP level', () => {
  const { server, auth, v1, caseCount } = httpSuiteServer();

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
      const res = await fetch(server().mcpUrl, {
        method: 'POST',
        headers: { ...mcpHeaders, ...headers },
        body: initialize,
      });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="chambers", error="invalid_token"/);
      await expectRefusal(res, 401, 'unauthorized');
    });
    it.each(attempts)('/v1/tools refuses %s', async (_, headers) => {
      const res = await fetch(`${server().url}/v1/tools/case_list`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: '{}',
      });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
      await expectRefusal(res, 401, 'unauthorized');
      const list = await fetch(`${server().url}/v1/tools`, { headers });
      expect(list.headers.get('www-authenticate')).toMatch(/^Bearer /);
      await expectRefusal(list, 401, 'unauthorized');
    });
    it.each(['legacy', 'modern'] as const)(
      'the official client cannot connect with a bad token [%s era]',
      async (era) => {
        const connecting = server().connect('ceo', {
          era,
          headers: { Authorization: 'Bearer chm_0000000000000000000000000000000000000000000' },
        });
        await expect(connecting).rejects.toThrow(/401|unauthori[sz]ed|invalid_token/i);
      },
    );
    it('a valid token passes', async () => {
      const res = await fetch(server().mcpUrl, {
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
        const res = await fetch(server().mcpUrl, {
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
      const res = await fetch(server().mcpUrl, {
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
      const mcp = await expectRefusal(await post(server().mcpUrl), 413, 'payload_too_large');
      expect(mcp).toMatchObject({ id: null, error: { data: { details: { max_bytes: MAX_BODY } } } });
      const json = await expectRefusal(
        await post(`${server().url}/v1/tools/case_create`),
        413,
        'payload_too_large',
      );
      expect(json).toMatchObject({ error: { details: { max_bytes: MAX_BODY } } });
    });

    it.each(['legacy', 'modern'] as const)(
      'through the official client [%s era]: an oversized call fails with HTTP 413 and never runs',
      async (era) => {
        const client = await server().connect('ceo', { era });
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
      const res = await fetch(server().mcpUrl, {
        method: 'POST',
        headers: { ...mcpHeaders, ...auth() },
        body: tooBigCall('BIG-1'),
      });
      expect(res.status).toBe(413);
      expect(await caseCount('BIG-1')).toBe(0);
    });

    it('a chunked body without Content-Length is counted as it streams and refused past the cap', async () => {
      const res = await fetch(server().mcpUrl, {
        method: 'POST',
        headers: { ...mcpHeaders, ...auth() },
        body: chunked(tooBigCall('BIG-2')),
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(await caseCount('BIG-2')).toBe(0);
      const json = await fetch(`${server().url}/v1/tools/case_create`, {
        method: 'POST',
        headers: { ...auth(), 'Content-Type': 'application/json' },
        body: chunked(JSON.stringify({ case_number: 'BIG-3', title: 't', notes: 'n'.repeat(MAX_BODY) })),
        duplex: 'half',
      } as RequestInit);
      expect(json.status).toBe(413);
      expect(await caseCount('BIG-3')).toBe(0);
    });

    it('a chunked body under the cap goes through', async () => {
      const res = await fetch(`${server().url}/v1/tools/case_create`, {
        method: 'POST',
        headers: { ...auth(), 'Content-Type': 'application/json' },
        body: chunked(JSON.stringify({ case_number: 'SMALL-CHUNKED', title: 'קטן' })),
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(200);
      expect(await caseCount('SMALL-CHUNKED')).toBe(1);
      const mcp = await fetch(server().mcpUrl, {
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
      const res = await fetch(server().mcpUrl, {
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
        fetch(server().mcpUrl, { method: 'POST', headers: { ...mcpHeaders, ...auth(), ...headers }, body });
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
      const res = await fetch(`${server().url}/v2/nothing`, { headers: auth() });
      const body = await expectRefusal(res, 404, 'route_not_found');
      expect(body.message).toBe('No route GET /v2/nothing.');
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
    const res = await fetch(`${server().url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, db: 'up', kv: { status: 'up', kind: 'postgres' } });
  });
});
