// The HTTP edge over a loopback socket, as a browser or a DNS-rebinding page would meet it: /mcp takes JSON
// only (a text/plain POST needs no preflight, so it must never run a tool), a server bound to loopback answers
// only the loopback Host names when ALLOWED_HOSTS is unset, and CORS preflights are answered for allowed
// origins only.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cases } from '../../src/db/schema/cases.ts';
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS } from '../../src/http/middleware/cors.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { expectRefusal, listTools, mcpHeaders, withHost } from './_http.ts';

const callTool = (name: string, args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } });

describe('the HTTP edge', () => {
  let s: TestServer;
  const auth = () => ({ Authorization: `Bearer ${s.tokens.ceo}` });
  beforeAll(async () => {
    // Bound to 127.0.0.1 (socket: true), ALLOWED_HOSTS unset.
    s = await startTestServer({ socket: true, env: { ALLOWED_ORIGINS: 'app.example' } });
  });
  afterAll(async () => s?.close());

  describe('/mcp takes application/json only', () => {
    it.each([
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
    ])('415 for %s, and a tools/call sent so never runs', async (type) => {
      const number = `ערר ${type}`;
      const res = await fetch(s.mcpUrl, {
        method: 'POST',
        // The headers a 2025-era client sends (the fast path's), but the body typed as something else.
        headers: { ...mcpHeaders, 'MCP-Protocol-Version': '2025-06-18', ...auth(), 'Content-Type': type },
        body: callTool('case_create', { case_number: number, title: 'x' }),
      });
      await expectRefusal(res, 415, 'unsupported_media_type');
      expect(await s.db.db.select().from(cases).where(eq(cases.caseNumber, number))).toEqual([]);
    });

    it('a body sent without Content-Type is refused too', async () => {
      const res = await fetch(s.mcpUrl, {
        method: 'POST',
        headers: { Accept: mcpHeaders.Accept, 'MCP-Protocol-Version': '2025-06-18', ...auth() },
        body: new Blob([listTools]),
      });
      await expectRefusal(res, 415, 'unsupported_media_type');
    });

    it('application/json with a charset is JSON', async () => {
      const res = await fetch(s.mcpUrl, {
        method: 'POST',
        headers: {
          ...mcpHeaders,
          'MCP-Protocol-Version': '2025-06-18',
          ...auth(),
          'Content-Type': 'application/json; charset=utf-8',
        },
        body: listTools,
      });
      expect(res.status).toBe(200);
    });
  });

  describe('bound to loopback with ALLOWED_HOSTS unset: the loopback Host names only', () => {
    it.each(['evil.example', 'evil.example:8787', '10.0.0.7', 'localhost.evil.example'])(
      '403 host_not_allowed for Host %s, on /mcp and /v1',
      async (host) => {
        const mcp = await withHost(s, '/mcp', host);
        expect(mcp.status).toBe(403);
        expect(JSON.parse(mcp.text)).toMatchObject({ error: { data: { code: 'host_not_allowed' } } });
        const v1 = await withHost(s, '/v1/tools/case_list', host, '{}');
        expect(v1.status).toBe(403);
        expect(JSON.parse(v1.text)).toMatchObject({ ok: false, error: { code: 'host_not_allowed' } });
      },
    );

    it.each(['localhost', 'localhost:8787', '127.0.0.1:8787', '[::1]:8787'])(
      'Host %s passes',
      async (host) => {
        expect((await withHost(s, '/mcp', host)).status).toBe(200);
      },
    );

    it('each Host value keeps its own verdict, past the number of verdicts the server remembers', async () => {
      // 300 refused names (more than are remembered), each followed by an allowed one and then asked again.
      for (let i = 0; i < 300; i++) {
        const evil = `evil-${i}.example`;
        expect((await withHost(s, '/mcp', evil)).status).toBe(403);
        expect((await withHost(s, '/mcp', `localhost:${8000 + (i % 7)}`)).status).toBe(200);
        if (i % 50 === 0) expect((await withHost(s, '/mcp', evil)).status).toBe(403);
      }
      expect((await withHost(s, '/mcp', 'evil-0.example')).status).toBe(403);
      expect((await withHost(s, '/mcp', 'localhost')).status).toBe(200);
    });
  });

  describe('CORS', () => {
    const preflight = (origin: string, path = '/mcp') =>
      fetch(`${s.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers':
            'authorization, content-type, mcp-protocol-version, mcp-session-id, mcp-param-case_id',
        },
      });

    it.each(['http://localhost:5173', 'https://app.example'])(
      'a preflight from the allowed origin %s allows POST and the MCP headers',
      async (origin) => {
        const res = await preflight(origin);
        expect(res.status).toBe(204);
        expect(res.headers.get('access-control-allow-origin')).toBe(origin);
        expect(res.headers.get('vary')).toBe('Origin');
        expect(res.headers.get('access-control-allow-methods')).toBe('POST');
        const allowed = (res.headers.get('access-control-allow-headers') ?? '').split(', ');
        for (const h of [...CORS_ALLOWED_HEADERS, 'mcp-param-case_id']) expect(allowed).toContain(h);
        for (const h of ['authorization', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id']) {
          expect(allowed).toContain(h);
        }
        const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(', ');
        expect(exposed).toEqual([...CORS_EXPOSED_HEADERS]);
        expect(exposed).toEqual(expect.arrayContaining(['mcp-session-id', 'mcp-protocol-version']));
        expect(await res.text()).toBe('');
      },
    );

    it('/v1 preflights allow GET and POST', async () => {
      const res = await preflight('https://app.example', '/v1/tools/case_list');
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST');
    });

    it('another origin gets a refusal and no CORS header', async () => {
      const res = await preflight('https://evil.example');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('access-control-allow-headers')).toBeNull();
      await expectRefusal(res, 403, 'origin_not_allowed');
      const post = await fetch(s.mcpUrl, {
        method: 'POST',
        headers: { ...mcpHeaders, ...auth(), Origin: 'https://evil.example' },
        body: listTools,
      });
      expect(post.headers.get('access-control-allow-origin')).toBeNull();
      await expectRefusal(post, 403, 'origin_not_allowed');
    });

    it('an OPTIONS without Origin says what the route serves', async () => {
      const res = await fetch(s.mcpUrl, { method: 'OPTIONS' });
      expect(res.status).toBe(204);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('answers to an allowed origin name it and expose the MCP headers, refusals too', async () => {
      const origin = 'http://localhost:5173';
      const ok = await fetch(s.mcpUrl, {
        method: 'POST',
        headers: { ...mcpHeaders, 'MCP-Protocol-Version': '2025-06-18', ...auth(), Origin: origin },
        body: listTools,
      });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('access-control-allow-origin')).toBe(origin);
      expect(ok.headers.get('access-control-expose-headers')).toContain('mcp-session-id');
      await ok.text();
      // A browser client must be able to read the 401 and its challenge.
      const unauthorized = await fetch(s.mcpUrl, {
        method: 'POST',
        headers: { ...mcpHeaders, Origin: origin },
        body: listTools,
      });
      expect(unauthorized.headers.get('access-control-allow-origin')).toBe(origin);
      expect(unauthorized.headers.get('access-control-expose-headers')).toContain('www-authenticate');
      await expectRefusal(unauthorized, 401, 'unauthorized');
    });
  });
});

describe('bound to all interfaces with ALLOWED_HOSTS unset', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ socket: true, listenHost: '0.0.0.0' });
  });
  afterAll(async () => s?.close());

  it('any Host passes (a deployment behind a known name should set ALLOWED_HOSTS)', async () => {
    expect((await withHost(s, '/mcp', 'chambers.example')).status).toBe(200);
  });
});
