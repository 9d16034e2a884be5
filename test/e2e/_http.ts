// Shared by the HTTP suites: the one refusal shape of each route family, raw MCP requests, chunked bodies.
import { expect } from 'vitest';
import { errorCatalogue } from '../../src/contract/errors.ts';

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
