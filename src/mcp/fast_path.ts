// The hot path of /mcp: a plain tools/list or tools/call answered without the SDK's per-request server, in
// both protocol eras, byte for byte as the SDK would answer it (test/e2e/fast_path.test.ts holds them equal).
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  isJSONRPCRequest,
  isJsonContentType,
  PROTOCOL_VERSION_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import { noProgress } from '../contract/define.ts';
import type { Registry } from '../contract/registry.ts';
import { respondWithRequestId } from '../http/middleware/request_id.ts';
import { callToolResultJson, type ToolCaller, type ToolListings } from './listings.ts';
import type { McpCallState } from './state.ts';

/** The 2026-07-28 revision: requests carry a per-request `_meta` envelope (the SDK's "modern" era). */
const MODERN = '2026-07-28';
/** The 2025-era revisions the SDK serves statelessly (everything it supports before the modern one). */
const LEGACY_VERSIONS = new Set(SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v < MODERN));

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const LIST_MODERN: ReadonlySet<string> = new Set(['_meta']);
const LIST_LEGACY: ReadonlySet<string> = new Set(['_meta', 'cursor']);
const CALL_KEYS: ReadonlySet<string> = new Set(['_meta', 'name', 'arguments']);

/** Whether every own key of `o` is in `allowed` (a loop, not Object.keys: no array per request). */
function onlyKeys(o: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const k in o) if (Object.hasOwn(o, k) && !allowed.has(k)) return false;
  return true;
}

export interface FastPathDeps {
  registry: Registry;
  listings: ToolListings;
  call: ToolCaller;
}

/**
 * The hot path — a single `tools/list` or `tools/call` (no progress token, nothing unusual in its
 * headers or envelope) — answered as a JSON response (the transport allows JSON or SSE) without building
 * the SDK's per-request server and transport, which cost ~0.5 ms (2025 era) to ~2.5 ms (2026-07-28) per
 * call. Both eras: a 2025-era request exactly as the SDK would route it to its stateless legacy serving,
 * and a 2026-07-28 request whose headers and `_meta` envelope are the plain ones an official client sends
 * (the SDK's answer then only adds `resultType` and the server info). Anything else (other methods,
 * progress, unknown tools, every malformed or unusual request) goes to the SDK, which owns those answers;
 * test/e2e/fast_path.test.ts compares the two byte for byte.
 */
export async function fastPath(
  request: Request,
  body: unknown,
  state: McpCallState,
  d: FastPathDeps,
): Promise<Response | null> {
  if (!isPlainObject(body) || (body.method !== 'tools/list' && body.method !== 'tools/call')) return null;
  const headers = request.headers;
  const version = headers.get('mcp-protocol-version');
  const accept = headers.get('accept') ?? '';
  if (
    version === null ||
    !isJsonContentType(headers.get('content-type') ?? '') ||
    !accept.includes('application/json') ||
    !accept.includes('text/event-stream') ||
    !isJSONRPCRequest(body)
  ) {
    return null;
  }
  const params = body.params ?? {};
  if (!isPlainObject(params)) return null;
  const meta = params._meta;
  if (meta !== undefined && !isPlainObject(meta)) return null;
  if (meta?.progressToken !== undefined) return null;
  let modern: boolean;
  if (LEGACY_VERSIONS.has(version)) {
    // The SDK's legacy rule: no envelope claim in `_meta` and a pre-2026 version header.
    if (meta !== undefined && PROTOCOL_VERSION_META_KEY in meta) return null;
    modern = false;
  } else if (version === MODERN) {
    if (
      meta === undefined ||
      !plainEnvelope(meta) ||
      headers.get('mcp-method') !== body.method ||
      headers.get('mcp-name') !== (body.method === 'tools/call' ? params.name : null)
    ) {
      return null;
    }
    modern = true;
  } else {
    return null;
  }
  const id = JSON.stringify(body.id);
  if (body.method === 'tools/list') {
    if (!onlyKeys(params, modern ? LIST_MODERN : LIST_LEGACY)) return null;
    const listing = d.listings.listingFor(state.agent);
    return jsonResponse(
      `{"result":${modern ? listing.modernJson : listing.json},"jsonrpc":"2.0","id":${id}}`,
      state.ctx.requestId,
    );
  }
  if (!onlyKeys(params, CALL_KEYS)) return null;
  const tool = typeof params.name === 'string' ? d.registry.get(params.name) : undefined;
  const args = params.arguments;
  if (tool === undefined || (args !== undefined && !isPlainObject(args))) return null;
  const envelope = await d.call(state, tool, args, noProgress);
  const result = callToolResultJson(envelope);
  return jsonResponse(
    `{"result":${modern ? `${result.slice(0, -1)},"resultType":"complete","_meta":${d.listings.modernMeta}}` : result},"jsonrpc":"2.0","id":${id}}`,
    state.ctx.requestId,
  );
}

/**
 * A 2026-07-28 `_meta` envelope with nothing to check beyond its shape: the version, the client's name and
 * version, and no capabilities (or empty ones) — what the official client sends. Any other key or value
 * (log level, trace context, capabilities to validate) is the SDK's to judge.
 */
function plainEnvelope(meta: Record<string, unknown>): boolean {
  const info = meta[CLIENT_INFO_META_KEY];
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
  return (
    meta[PROTOCOL_VERSION_META_KEY] === MODERN &&
    Object.keys(meta).every(
      (k) =>
        k === PROTOCOL_VERSION_META_KEY || k === CLIENT_INFO_META_KEY || k === CLIENT_CAPABILITIES_META_KEY,
    ) &&
    isPlainObject(info) &&
    typeof info.name === 'string' &&
    typeof info.version === 'string' &&
    Object.keys(info).every((k) => k === 'name' || k === 'version') &&
    (capabilities === undefined ||
      (isPlainObject(capabilities) &&
        Object.values(capabilities).every((c) => isPlainObject(c) && Object.keys(c).length === 0)))
  );
}

// The id goes in now, with the plain header object the Node adapter writes without copying (request_id.ts).
const jsonResponse = (text: string, requestId: string) =>
  respondWithRequestId(text, { 'content-type': 'application/json' }, requestId);
