// The binding answers a stateless 2025-era tools/list or tools/call itself (as JSON) and leaves every other
// request to the SDK; both must give the same results, and anything unusual must still reach the SDK.
// Over a loopback socket (`socket: true`): the subject is what each path puts on the wire.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../entry/registries.ts';
import { loadAgentsFromDir } from '../../src/agents/load_node.ts';
import { noProgress } from '../../src/contract/define.ts';
import { buildRegistry } from '../../src/contract/registry.ts';
import { noJobs } from '../../src/jobs/context.ts';
import { createLogger } from '../../src/log.ts';
import { createMcpEndpoint, type McpCallState } from '../../src/mcp/binding.ts';
import { grantsFromAgents } from '../../src/server.ts';
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

// Byte for byte: the same requests to an endpoint with the fast path and to one without (every request to
// the SDK), over the same database and caller, in both eras; and what the fast path must leave to the SDK.
describe('the fast path answers exactly what the SDK answers', () => {
  let s: TestServer;
  let fast: ReturnType<typeof createMcpEndpoint>;
  let sdk: ReturnType<typeof createMcpEndpoint>;
  let state: McpCallState;
  let caseId: string;
  beforeAll(async () => {
    s = await startTestServer();
    const registry = buildRegistry(tools, { ownerGate: 'ack' });
    const grants = grantsFromAgents(await loadAgentsFromDir('agents'), registry);
    const endpoint = (fastPath: boolean) =>
      createMcpEndpoint({
        registry,
        grants,
        serverInfo: { name: 'chambers', version: '0.1.0' },
        instructions: 'test',
        checkOutputs: true,
        fastPath,
      });
    fast = endpoint(true);
    sdk = endpoint(false);
    const ceo = grants.get('ceo') ?? new Set<string>();
    state = {
      agent: 'ceo',
      grants: ceo,
      holders: new Map([['case_delete', ['ceo']]]),
      consoleUrl: 'http://chambers.invalid/console',
      ctx: {
        holds: (t) => ceo.has(t),
        db: s.db.db,
        kv: s.kv,
        agent: 'ceo',
        requestId: 'equivalence',
        now: () => new Date(),
        log: createLogger('silent'),
        progress: noProgress,
        jobs: noJobs,
      },
    };
    caseId = expectOk<{ case: { id: string } }>(
      await s.call('ceo', 'case_create', { case_number: 'ערר FP-2/25', title: 'שקילות' }),
    ).case.id;
  });
  afterAll(async () => s?.close());

  const modernMeta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const headersOf = (era: 'legacy' | 'modern', method: string, name?: string): Record<string, string> => ({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(era === 'legacy'
      ? { 'mcp-protocol-version': '2025-11-25' }
      : {
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
          ...(name === undefined ? {} : { 'mcp-name': name }),
        }),
  });
  const call = (era: 'legacy' | 'modern', name: string, args: unknown, id: unknown = 1) => ({
    headers: headersOf(era, 'tools/call', name),
    body: {
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: args, ...(era === 'modern' ? { _meta: modernMeta } : {}) },
    },
  });
  const list = (era: 'legacy' | 'modern', id: unknown = 1) => ({
    headers: headersOf(era, 'tools/list'),
    body: {
      jsonrpc: '2.0',
      id,
      method: 'tools/list',
      ...(era === 'modern' ? { params: { _meta: modernMeta } } : {}),
    },
  });
  const answer = async (
    endpoint: ReturnType<typeof createMcpEndpoint>,
    r: { headers: Record<string, string>; body: unknown },
  ) => {
    const res = await endpoint.fetch(
      new Request('http://chambers.invalid/mcp', {
        method: 'POST',
        headers: r.headers,
        body: JSON.stringify(r.body),
      }),
      state,
    );
    const type = res.headers.get('content-type') ?? '';
    const text = await res.text();
    // The 2025-era SDK transport answers over SSE: its one data line carries the JSON-RPC message's text.
    const message = type.startsWith('text/event-stream')
      ? (text
          .split('\n')
          .find((l) => l.startsWith('data: '))
          ?.slice(6) ?? '')
      : text;
    return { status: res.status, type, message };
  };

  it('answers tools/list and tools/call, successes and errors, with the SDK’s bytes in both eras', async () => {
    for (const era of ['legacy', 'modern'] as const) {
      const requests = [
        list(era),
        list(era, 'string-id'),
        call(era, 'case_get', { case_id: caseId }),
        call(era, 'case_get', { case_id: caseId }, 'x-7'),
        call(era, 'case_get', { case_id: crypto.randomUUID() }),
        call(era, 'case_get', { case_idd: caseId }),
        call(era, 'case_get', {}),
        call(era, 'case_list', { limit: 1 }),
        call(era, 'bench_never_registered', {}),
        // Not granted to ceo: the kernel's tool_not_granted envelope.
        call(era, 'extraction_run', {}),
      ];
      const before = fast.stats.fast;
      for (const r of requests) {
        const [a, b] = [await answer(fast, r), await answer(sdk, r)];
        // The same message text, byte for byte (a 2025-era SDK answer comes over SSE, the fast path's as JSON).
        expect({ era, status: a.status, message: a.message }).toEqual({
          era,
          status: b.status,
          message: b.message,
        });
        if (era === 'modern') expect(a.type).toBe(b.type);
      }
      // All but the unknown tool were the fast path's; the other endpoint never takes it.
      expect(fast.stats.fast - before).toBe(requests.length - 1);
      expect(sdk.stats.fast).toBe(0);
    }
  });

  it('leaves anything unusual to the SDK, whose answer stands', async () => {
    const modern = call('modern', 'case_get', { case_id: caseId });
    const unusual = [
      // Header and body disagree, or the envelope is not the plain one.
      { ...modern, headers: { ...modern.headers, 'mcp-name': 'case_list' } },
      { ...modern, headers: { ...modern.headers, 'mcp-method': 'tools/list' } },
      {
        ...modern,
        body: {
          ...modern.body,
          params: {
            ...modern.body.params,
            _meta: { ...modernMeta, 'io.modelcontextprotocol/protocolVersion': 1 },
          },
        },
      },
      {
        ...modern,
        body: {
          ...modern.body,
          params: { ...modern.body.params, _meta: { ...modernMeta, progressToken: 'p' } },
        },
      },
      { ...modern, headers: { ...modern.headers, 'content-type': 'text/plain' } },
      { ...modern, headers: { ...modern.headers, accept: 'application/json' } },
      // A 2025-era request claiming the modern envelope, and one with a version the SDK does not serve.
      { ...call('legacy', 'case_get', { case_id: caseId }), body: modern.body },
      { ...modern, headers: { ...modern.headers, 'mcp-protocol-version': '2099-01-01' } },
      { ...list('legacy'), body: { ...list('legacy').body, params: { cursor: 'x', extra: 1 } } },
      { ...call('legacy', 'case_get', 'not an object') },
    ];
    const before = fast.stats.fast;
    for (const r of unusual) {
      const [a, b] = [await answer(fast, r), await answer(sdk, r)];
      expect(a).toEqual(b);
    }
    expect(fast.stats.fast).toBe(before);
  });
});
