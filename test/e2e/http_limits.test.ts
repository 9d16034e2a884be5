// The HTTP limits over a loopback socket: ALLOWED_HOSTS, rate limiting with Retry-After, and the larger body
// cap for agents granted a tool that takes file content.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolList as tools } from '../../functions/index.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

import { listTools, probe_blob_get, withHost } from './_http.ts';

const MAX_BODY = 4096;
const MAX_UPLOAD_BODY = 3 * MAX_BODY;

describe('ALLOWED_HOSTS', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ socket: true, env: { ALLOWED_HOSTS: 'chambers.example' } });
  });
  afterAll(async () => s?.close());

  /** A request with a Host header of our choosing; refusals parsed (a successful /mcp answer may be SSE). */
  const hostCall = async (path: string, host: string) => {
    const res = await withHost(s, path, host, path === '/mcp' ? listTools : '{}');
    return {
      status: res.status,
      body: res.status === 200 ? {} : (JSON.parse(res.text) as Record<string, unknown>),
    };
  };

  it('403 host_not_allowed for another Host, in each route family’s shape; listed and localhost hosts pass', async () => {
    const json = await hostCall('/v1/tools/case_list', 'evil.example');
    expect(json).toMatchObject({ status: 403, body: { ok: false, error: { code: 'host_not_allowed' } } });
    const mcp = await hostCall('/mcp', 'evil.example:8787');
    expect(mcp).toMatchObject({
      status: 403,
      body: { jsonrpc: '2.0', error: { data: { code: 'host_not_allowed' } } },
    });
    expect((await hostCall('/v1/tools/case_list', 'chambers.example')).status).toBe(200);
    expect((await hostCall('/mcp', 'localhost:8787')).status).toBe(200);
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
