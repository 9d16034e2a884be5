// The binding answers a stateless 2025-era tools/list or tools/call itself (as JSON) and leaves every other
// request to the SDK; both must give the same results, and anything unusual must still reach the SDK.
// Over a loopback socket (`socket: true`): the subject is what each path puts on the wire.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, startTestServer, type TestServer } from '../harness/server.ts';

describe('the stateless 2025-era fast path', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ socket: true });
  });
  afterAll(async () => s?.close());

  const post = async (message: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(s.mcpUrl, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${s.tokens.ceo}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify(message),
    });
    const type = res.headers.get('content-type') ?? '';
    const text = await res.text();
    // An SSE answer carries the JSON-RPC response in its data line.
    const json = type.startsWith('text/event-stream')
      ? JSON.parse(
          text
            .split('\n')
            .find((l) => l.startsWith('data: '))
            ?.slice(6) ?? 'null',
        )
      : JSON.parse(text);
    return { status: res.status, type, json };
  };
  const versioned = { 'MCP-Protocol-Version': '2025-11-25' };

  it('answers tools/list as JSON with exactly what the SDK path answers', async () => {
    const fast = await post({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} }, versioned);
    // Without the version header the SDK serves it (defaulting to 2025-03-26) over SSE.
    const sdk = await post({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} });
    expect(fast.type).toMatch(/^application\/json/);
    expect(sdk.type).toMatch(/^text\/event-stream/);
    expect(fast.json).toEqual(sdk.json);
    expect(fast.json.result.tools.map((t: { name: string }) => t.name)).toContain('case_create');
  });

  it('answers tools/call with the same result as the SDK path, errors included', async () => {
    const id = expectOk<{ case: { id: string } }>(
      await s.call('ceo', 'case_create', { case_number: 'ערר FP-1/25', title: 'מסלול מהיר' }),
    ).case.id;
    for (const args of [{ case_id: id }, { case_id: crypto.randomUUID() }, { case_idd: id }]) {
      const message = {
        jsonrpc: '2.0',
        id: 'x',
        method: 'tools/call',
        params: { name: 'case_get', arguments: args },
      };
      const fast = await post(message, versioned);
      const sdk = await post(message);
      expect(fast.type).toMatch(/^application\/json/);
      expect(fast.json).toEqual(sdk.json);
    }
  });

  it('leaves unknown tools, progress, notifications and batches to the SDK', async () => {
    const unknown = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'case_nope', arguments: {} } },
      versioned,
    );
    expect(unknown.json.error.code).toBe(-32602);
    const progress = await post(
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'case_list', arguments: {}, _meta: { progressToken: 'p' } },
      },
      versioned,
    );
    expect(progress.type).toMatch(/^text\/event-stream/);
    expect(progress.json.result.structuredContent.ok).toBe(true);
    const wrongAccept = await post(
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} },
      {
        ...versioned,
        Accept: 'application/json',
      },
    );
    expect(wrongAccept.status).toBe(406);
    const badVersion = await post(
      { jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} },
      {
        'MCP-Protocol-Version': '1999-01-01',
      },
    );
    expect(badVersion.status).toBe(400);
  });
});
