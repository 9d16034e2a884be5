import {
  createMcpHandler,
  type ListToolsResult,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type Tool,
} from '@modelcontextprotocol/server';
import { DefaultJsonSchemaValidator } from '@modelcontextprotocol/server/_shims';
import type { Logger, ToolContext } from '../contract/define.ts';
import { callTool } from '../contract/execute.ts';
import type { RateLimiter } from '../contract/rate_limit.ts';
import type { Registry } from '../contract/registry.ts';

/** What the HTTP layer knows about the caller once the token is checked. */
export interface McpCallState {
  agent: string;
  grants: ReadonlySet<string>;
  /** The tool context without progress, which only the MCP request can provide. */
  ctx: Omit<ToolContext, 'progress'>;
}

export interface McpEndpointOptions {
  registry: Registry;
  /** Grants per agent; `tools/list` is computed once per agent from it. */
  grants: ReadonlyMap<string, ReadonlySet<string>>;
  serverInfo: { name: string; version: string };
  instructions?: string;
  rateLimiter?: RateLimiter;
  /** Where the SDK's transport-level rejections (bad JSON-RPC, wrong headers) are reported. */
  log?: Logger;
}

const STATE = 'chambers';
const noProgress = async () => {};

/**
 * The MCP binding: the official SDK's handler serves both protocol eras statelessly; per request it
 * gets a low-level `Server` (microseconds to build) over tool listings computed once per agent, and
 * `tools/call` hands the raw arguments to the kernel before any SDK validation (C3).
 */
export function createMcpEndpoint(options: McpEndpointOptions) {
  const { registry, rateLimiter } = options;
  // Built once: the SDK would otherwise create an Ajv instance per per-request Server.
  const jsonSchemaValidator = new DefaultJsonSchemaValidator();
  const listings = new Map<string, ListToolsResult>();
  const listFor = (agent: string) => {
    let listing = listings.get(agent);
    if (listing === undefined) {
      const granted = options.grants.get(agent) ?? new Set<string>();
      // Our listings are JSON Schema objects built by the registry; the SDK's type narrows the same shape.
      const tools = registry.tools
        .filter((t) => granted.has(t.def.name))
        .map((t) => t.listing as unknown as Tool);
      listing = { tools };
      listings.set(agent, listing);
    }
    return listing;
  };

  const handler = createMcpHandler(
    ({ authInfo }) => {
      const state = authInfo?.extra?.[STATE] as McpCallState | undefined;
      if (state === undefined)
        throw new Error('MCP request reached the binding without an authenticated caller');
      const server = new Server(options.serverInfo, {
        capabilities: { tools: { listChanged: false } },
        jsonSchemaValidator,
        ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      });
      server.setRequestHandler('tools/list', async () => listFor(state.agent));
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
          rateLimiter,
        });
        return server.projectCallToolResult(
          {
            content: [{ type: 'text', text: JSON.stringify(envelope) }],
            structuredContent: envelope as unknown as Record<string, unknown>,
            isError: !envelope.ok,
          },
          tool.listing.outputSchema,
        );
      });
      return server;
    },
    {
      legacy: 'stateless',
      // Through the app's logger (level, sink, JSON lines) rather than straight to stderr.
      onerror: (e) =>
        options.log === undefined
          ? console.error(JSON.stringify({ level: 'warn', msg: 'mcp', error: String(e) }))
          : options.log.warn('mcp transport', { error: String(e) }),
    },
  );

  return {
    listFor,
    fetch: (request: Request, state: McpCallState): Promise<Response> =>
      handler.fetch(request, {
        authInfo: { token: '', clientId: state.agent, scopes: [], extra: { [STATE]: state } },
      }),
  };
}
