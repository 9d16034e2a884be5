import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  createMcpHandler,
  isJSONRPCRequest,
  isJsonContentType,
  type ListToolsResult,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  SERVER_INFO_META_KEY,
  Server,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Tool,
} from '@modelcontextprotocol/server';
import { DefaultJsonSchemaValidator } from '@modelcontextprotocol/server/_shims';
import type { Envelope } from '../contract/envelope.ts';
import type { RateLimiter } from '../contract/rate_limit.ts';
import type { Registry } from '../contract/registry.ts';
import { errorText, type Logger } from '../log.ts';
import { callAs, type McpCallState } from './state.ts';
import type { CompletionRef, McpSurface } from './surface.ts';

export type { McpCallState } from './state.ts';

export interface McpEndpointOptions {
  registry: Registry;
  /** Grants per agent; `tools/list` is computed once per agent from it. */
  grants: ReadonlyMap<string, ReadonlySet<string>>;
  serverInfo: { name: string; version: string };
  instructions?: string;
  rateLimiter?: RateLimiter;
  /** Check every result against its tool's output schema (the test suite; see callTool). */
  checkOutputs?: boolean;
  /** Where the SDK's transport-level rejections (bad JSON-RPC, wrong headers) are reported. */
  log?: Logger;
  /** Prompts, resources and completion (src/mcp/surface.ts); without it the server offers tools only. */
  surface?: McpSurface;
  /** false: every request goes to the SDK (the equivalence test compares the fast path's answers with it). */
  fastPath?: boolean;
}

/** The 2026-07-28 revision: requests carry a per-request `_meta` envelope (the SDK's "modern" era). */
const MODERN = '2026-07-28';
/** The 2025-era revisions the SDK serves statelessly (everything it supports before the modern one). */
const LEGACY_VERSIONS = new Set(SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v < MODERN));

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const STATE = 'chambers';

/**
 * The MCP binding: the official SDK's handler serves both protocol eras statelessly; per request it
 * gets a low-level `Server` (microseconds to build) over tool listings computed once per agent, and
 * `tools/call` hands the raw arguments to the kernel before any SDK validation (C3).
 */
export function createMcpEndpoint(options: McpEndpointOptions) {
  const { registry, rateLimiter, checkOutputs } = options;
  // Built once: the SDK would otherwise create an Ajv instance per per-request Server.
  const jsonSchemaValidator = new DefaultJsonSchemaValidator();
  const listings = new Map<string, { result: ListToolsResult; json: string; modernJson: string }>();
  // What the SDK adds to every 2026-07-28 result, and to a tools/list result (a cacheable result).
  const modernMeta = JSON.stringify({ [SERVER_INFO_META_KEY]: options.serverInfo });
  // Computed once per agent, as the object the SDK sends and as the JSON text the fast path sends in each era.
  const listingFor = (agent: string) => {
    let listing = listings.get(agent);
    if (listing === undefined) {
      const granted = options.grants.get(agent) ?? new Set<string>();
      // Our listings are JSON Schema objects built by the registry; the SDK's type narrows the same shape.
      const tools = registry.tools
        .filter((t) => granted.has(t.def.name))
        .map((t) => t.listing as unknown as Tool);
      const json = JSON.stringify({ tools });
      listing = {
        result: { tools },
        json,
        modernJson: `${json.slice(0, -1)},"resultType":"complete","ttlMs":0,"cacheScope":"private","_meta":${modernMeta}}`,
      };
      listings.set(agent, listing);
    }
    return listing;
  };
  const listFor = (agent: string) => listingFor(agent).result;

  const handler = createMcpHandler(
    ({ authInfo }) => {
      const state = authInfo?.extra?.[STATE] as McpCallState | undefined;
      if (state === undefined)
        throw new Error('MCP request reached the binding without an authenticated caller');
      const surface = options.surface;
      const server = new Server(options.serverInfo, {
        capabilities: {
          tools: { listChanged: false },
          // Stateless: no stream to send list changes or resource updates on, so neither is offered.
          ...(surface === undefined
            ? {}
            : { prompts: { listChanged: false }, resources: { listChanged: false }, completions: {} }),
        },
        jsonSchemaValidator,
        ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      });
      server.setRequestHandler('tools/list', async () => listFor(state.agent));
      if (surface !== undefined) {
        server.setRequestHandler('prompts/list', async () => ({ prompts: surface.listPrompts(state) }));
        server.setRequestHandler('prompts/get', async (request) =>
          surface.getPrompt(state, request.params.name, request.params.arguments ?? {}),
        );
        server.setRequestHandler('resources/list', async () => ({
          resources: await surface.listResources(state),
        }));
        server.setRequestHandler('resources/templates/list', async () => ({
          resourceTemplates: surface.listResourceTemplates(state),
        }));
        server.setRequestHandler('resources/read', async (request) =>
          surface.readResource(state, request.params.uri),
        );
        server.setRequestHandler('completion/complete', async (request) => ({
          completion: await surface.complete(state, {
            ref: request.params.ref as CompletionRef,
            argument: request.params.argument,
            ...(request.params.context?.arguments === undefined
              ? {}
              : { context: request.params.context.arguments }),
          }),
        }));
      }
      server.setRequestHandler('tools/call', async (request, mcp) => {
        const tool = registry.get(request.params.name);
        if (tool === undefined) {
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
        }
        const progressToken = mcp.mcpReq._meta?.progressToken;
        const envelope = await callAs(state, tool, request.params.arguments, {
          rateLimiter,
          checkOutputs,
          progress:
            progressToken === undefined
              ? undefined
              : (update) =>
                  mcp.mcpReq.notify({
                    method: 'notifications/progress',
                    params: { progressToken, ...update },
                  }),
        });
        return server.projectCallToolResult(callToolResult(envelope), tool.listing.outputSchema);
      });
      return server;
    },
    {
      legacy: 'stateless',
      // Through the app's logger (level, sink, JSON lines) rather than straight to stderr.
      // errorText: a JSON parse error quotes the body, which may be a document's content.
      onerror: (e) =>
        options.log === undefined
          ? console.error(JSON.stringify({ level: 'warn', msg: 'mcp', error: errorText(e) }))
          : options.log.warn('mcp transport', { error: errorText(e) }),
    },
  );

  const authInfoFor = (state: McpCallState) => ({
    token: '',
    clientId: state.agent,
    scopes: [],
    extra: { [STATE]: state },
  });

  /** How many requests the fast path answered (the equivalence test checks it was the one answering). */
  const stats = { fast: 0 };
  return {
    listFor,
    stats,
    async fetch(request: Request, state: McpCallState): Promise<Response> {
      // The body is read once here: the fast path needs it, and the SDK takes it pre-parsed.
      const text = await request.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        // Malformed JSON is the SDK's to answer (-32700): hand it the text unchanged.
        const copy = new Request(request.url, { method: 'POST', headers: request.headers, body: text });
        return handler.fetch(copy, { authInfo: authInfoFor(state) });
      }
      const fast = options.fastPath === false ? null : await fastPath(request, body, state);
      if (fast !== null) {
        stats.fast++;
        return fast;
      }
      return handler.fetch(request, { authInfo: authInfoFor(state), parsedBody: body });
    },
  };

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
  async function fastPath(request: Request, body: unknown, state: McpCallState): Promise<Response | null> {
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
      if (Object.keys(params).some((k) => k !== '_meta' && (modern || k !== 'cursor'))) return null;
      const listing = listingFor(state.agent);
      return jsonResponse(
        `{"result":${modern ? listing.modernJson : listing.json},"jsonrpc":"2.0","id":${id}}`,
      );
    }
    if (Object.keys(params).some((k) => k !== '_meta' && k !== 'name' && k !== 'arguments')) return null;
    const tool = typeof params.name === 'string' ? registry.get(params.name) : undefined;
    const args = params.arguments;
    if (tool === undefined || (args !== undefined && !isPlainObject(args))) return null;
    const envelope = await callAs(state, tool, args, { rateLimiter, checkOutputs });
    const result = JSON.stringify(callToolResult(envelope));
    return jsonResponse(
      `{"result":${modern ? `${result.slice(0, -1)},"resultType":"complete","_meta":${modernMeta}}` : result},"jsonrpc":"2.0","id":${id}}`,
    );
  }
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

const jsonResponse = (text: string) =>
  new Response(text, { status: 200, headers: { 'content-type': 'application/json' } });

/** C1 in MCP: the envelope as structuredContent, mirrored as one JSON text block; isError exactly on error. */
const callToolResult = (envelope: Envelope) => ({
  content: [{ type: 'text' as const, text: JSON.stringify(envelope) }],
  structuredContent: envelope as unknown as Record<string, unknown>,
  isError: !envelope.ok,
});
