// Shared by the HTTP suites: the one refusal shape of each route family, raw MCP requests, chunked bodies, a
// raw request with a Host of our choosing, the probe tools, and the server the /mcp and /v1 suites share.
import { request } from 'node:http';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import * as z from 'zod';
import { toolList as tools } from '../../functions/index.ts';
import { defineTool } from '../../src/contract/define.ts';
import { errorCatalogue } from '../../src/contract/errors.ts';
import { cases } from '../../src/db/schema/cases.ts';
import { latchTool } from '../harness/fixtures.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

/**
 * A refusal in the one shape of its route family: the tool envelope's error outside /mcp, a JSON-RPC error with
 * `data: {code, hint?, details?}` on /mcp; the HTTP status is the code's; nothing else in the body.
 */
export async function expectRefusal(
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

export const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fetch', version: '1' } },
});
export const listTools = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
export const mcpHeaders = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
};

/** A body sent without Content-Length (Transfer-Encoding: chunked), in pieces. */
export function chunked(text: string, pieces = 4): ReadableStream<Uint8Array> {
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

/** A raw POST with a Host header of our choosing (fetch sets Host itself), as the ceo. */
export const withHost = (s: TestServer, path: string, host: string, body = listTools) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
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
          ...mcpHeaders,
          'MCP-Protocol-Version': '2025-06-18',
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });

/** Runs a query against a table that does not exist, to provoke an internal error. */
export const probe_failure_run = defineTool({
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

/** Takes file content (takesUpload): the agents granted it get the upload body cap. */
export const probe_blob_get = defineTool({
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

/** The body cap of the shared HTTP server (upload tools get the same cap there). */
export const MAX_BODY = 4096;

/**
 * The server the /mcp and /v1 suites share, on a loopback socket (started before the suite's tests, closed
 * after): the real tools with a latch and a failing probe for the ceo, two allowed origins, a 4 KiB body cap.
 * `server()` is the running server; the helpers call as an agent.
 */
export function httpSuiteServer() {
  const latch = latchTool();
  let s: TestServer | undefined;
  const server = (): TestServer => {
    if (s === undefined) throw new Error('the HTTP suite server has not started');
    return s;
  };
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
  const auth = (agent: 'ceo' | 'analyst' | 'qa' = 'ceo') => ({
    Authorization: `Bearer ${server().tokens[agent]}`,
  });
  const v1 = (
    tool: string,
    body: unknown,
    headers: Record<string, string> = {},
    agent: 'ceo' | 'analyst' = 'ceo',
  ) =>
    fetch(`${server().url}/v1/tools/${tool}`, {
      method: 'POST',
      headers: { ...auth(agent), 'Content-Type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const caseCount = async (caseNumber: string) =>
    (await server().db.db.select().from(cases).where(eq(cases.caseNumber, caseNumber))).length;
  return { server, latch, auth, v1, caseCount };
}
