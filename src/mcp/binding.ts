import {
  createMcpHandler,
  isJSONRPCRequest,
  isLegacyRequest,
  type ListToolsResult,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Tool,
} from '@modelcontextprotocol/server';
import { DefaultJsonSchemaValidator } from '@modelcontextprotocol/server/_shims';
import { noProgress, type ToolContext } from '../contract/define.ts';
import type { Envelope } from '../contract/envelope.ts';
import { callTool } from '../contract/execute.ts';
import type { RateLimiter } from '../contract/rate_limit.ts';
import type { Registry } from '../contract/registry.ts';
import { errorText, type Logger } from '../log.ts';
import type { McpCallState } from './state.ts';
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
}

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
  const listings = new Map<string, { result: ListToolsResult; json: string }>();
  // Computed once per agent, as the object the SDK sends and as the JSON text the fast path sends.
  const listingFor = (agent: string) => {
    let listing = listings.get(agent);
    if (listing === undefined) {
      const granted = options.grants.get(agent) ?? new Set<string>();
      // Our listings are JSON Schema objects built by the registry; the SDK's type narrows the same shape.
      const tools = registry.tools
        .filter((t) => granted.has(t.def.name))
        .map((t) => t.listing as unknown as Tool);
      listing = { result: { tools }, json: JSON.stringify({ tools }) };
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
        const ctx: ToolContext = {
          ...state.ctx,
          progress:
            progressToken === undefined
              ? noProgress
              : (update) =>
                  mcp.mcpReq.notify({
                    method: 'notifications/progress',
                    params: { progressToken, ...update },
                  }),
        };
        const envelope = await callTool({
          tool,
          args: request.params.arguments,
          ctx,
          grants: state.grants,
          holders: state.holders,
          rateLimiter,
          checkOutputs,
          consoleUrl: state.consoleUrl,
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

  return {
    listFor,
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
      const fast = await fastPath(request, body, state);
      if (fast !== null) return fast;
      return handler.fetch(request, { authInfo: authInfoFor(state), parsedBody: body });
    },
  };

  /**
   * The hot path of a stateless 2025-era client — a single `tools/list` or `tools/call` (no progress
   * token) whose headers the SDK would accept as they are — answered as a JSON response (the transport
   * allows JSON or SSE) without building the SDK's per-request server and transport, which cost
   * ~0.5 ms per call. Anything else (other methods, progress, 2026-07-28 envelopes, every malformed or
   * unusual request) goes to the SDK, which owns those answers.
   */
  async function fastPath(request: Request, body: unknown, state: McpCallState): Promise<Response | null> {
    if (!isJSONRPCRequest(body) || (body.method !== 'tools/list' && body.method !== 'tools/call'))
      return null;
    const version = request.headers.get('mcp-protocol-version');
    const accept = request.headers.get('accept') ?? '';
    if (
      version === null ||
      !SUPPORTED_PROTOCOL_VERSIONS.includes(version) ||
      !accept.includes('application/json') ||
      !accept.includes('text/event-stream') ||
      !(await isLegacyRequest(request, body))
    ) {
      return null;
    }
    const params = (body.params ?? {}) as {
      name?: unknown;
      arguments?: unknown;
      _meta?: { progressToken?: unknown };
    };
    if (params._meta?.progressToken !== undefined) return null;
    if (body.method === 'tools/list') {
      if (Object.keys(params).some((k) => k !== '_meta' && k !== 'cursor')) return null;
      return jsonResponse(
        `{"result":${listingFor(state.agent).json},"jsonrpc":"2.0","id":${JSON.stringify(body.id)}}`,
      );
    }
    const tool = typeof params.name === 'string' ? registry.get(params.name) : undefined;
    const args = params.arguments;
    if (
      tool === undefined ||
      (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
    ) {
      return null;
    }
    const envelope = await callTool({
      tool,
      args,
      ctx: { ...state.ctx, progress: noProgress },
      grants: state.grants,
      holders: state.holders,
      rateLimiter,
      checkOutputs,
      consoleUrl: state.consoleUrl,
    });
    const result = callToolResult(envelope);
    return jsonResponse(JSON.stringify({ result, jsonrpc: '2.0', id: body.id }));
  }
}

const jsonResponse = (text: string) =>
  new Response(text, { status: 200, headers: { 'content-type': 'application/json' } });

/** C1 in MCP: the envelope as structuredContent, mirrored as one JSON text block; isError exactly on error. */
const callToolResult = (envelope: Envelope) => ({
  content: [{ type: 'text' as const, text: JSON.stringify(envelope) }],
  structuredContent: envelope as unknown as Record<string, unknown>,
  isError: !envelope.ok,
});
