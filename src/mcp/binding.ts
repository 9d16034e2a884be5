import { createMcpHandler } from '@modelcontextprotocol/server';
import { DefaultJsonSchemaValidator } from '@modelcontextprotocol/server/_shims';
import type { RateLimiter } from '../contract/rate_limit.ts';
import type { Registry } from '../contract/registry.ts';
import { errorText, type Logger } from '../log.ts';
import { fastPath } from './fast_path.ts';
import { type ToolCaller, toolListings } from './listings.ts';
import { sdkServer } from './sdk_server.ts';
import { callAs, type McpCallState } from './state.ts';
import type { McpSurface } from './surface.ts';

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

const STATE = 'chambers';

/**
 * The MCP binding: the official SDK's handler serves both protocol eras statelessly; per request it
 * gets a low-level `Server` (microseconds to build) over tool listings computed once per agent, and
 * `tools/call` hands the raw arguments to the kernel before any SDK validation (C3).
 */
export function createMcpEndpoint(options: McpEndpointOptions) {
  const { registry, rateLimiter, checkOutputs } = options;
  const listings = toolListings(registry, options.grants, options.serverInfo);
  // The one way both paths call a tool: as the caller, through the kernel.
  const call: ToolCaller = (state, tool, args, progress) =>
    callAs(state, tool, args, { rateLimiter, checkOutputs, progress });
  const deps = {
    registry,
    listings,
    call,
    serverInfo: options.serverInfo,
    jsonSchemaValidator: new DefaultJsonSchemaValidator(),
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    ...(options.surface === undefined ? {} : { surface: options.surface }),
  };

  const handler = createMcpHandler(
    ({ authInfo }) => {
      const state = authInfo?.extra?.[STATE] as McpCallState | undefined;
      if (state === undefined)
        throw new Error('MCP request reached the binding without an authenticated caller');
      return sdkServer(state, deps);
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
    listFor: (agent: string) => listings.listingFor(agent).result,
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
      const fast = options.fastPath === false ? null : await fastPath(request, body, state, deps);
      if (fast !== null) {
        stats.fast++;
        return fast;
      }
      return handler.fetch(request, { authInfo: authInfoFor(state), parsedBody: body });
    },
  };
}
