// The SDK's per-request server for everything the fast path does not answer: tools (the raw arguments go
// to the kernel before any SDK validation), and the prompts, resources and completion of the surface.
import { ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import type { DefaultJsonSchemaValidator } from '@modelcontextprotocol/server/_shims';
import { noProgress } from '../contract/define.ts';
import type { Registry } from '../contract/registry.ts';
import { callToolResult, type ToolCaller, type ToolListings } from './listings.ts';
import type { McpCallState } from './state.ts';
import type { CompletionRef, McpSurface } from './surface.ts';

export interface SdkServerDeps {
  registry: Registry;
  listings: ToolListings;
  call: ToolCaller;
  serverInfo: { name: string; version: string };
  instructions?: string;
  surface?: McpSurface;
  // Built once: the SDK would otherwise create an Ajv instance per per-request Server.
  jsonSchemaValidator: DefaultJsonSchemaValidator;
}

/** A low-level `Server` (microseconds to build) for one caller's request. */
export function sdkServer(state: McpCallState, d: SdkServerDeps): Server {
  const surface = d.surface;
  const server = new Server(d.serverInfo, {
    capabilities: {
      tools: { listChanged: false },
      // Stateless: no stream to send list changes or resource updates on, so neither is offered.
      ...(surface === undefined
        ? {}
        : { prompts: { listChanged: false }, resources: { listChanged: false }, completions: {} }),
    },
    jsonSchemaValidator: d.jsonSchemaValidator,
    ...(d.instructions === undefined ? {} : { instructions: d.instructions }),
  });
  server.setRequestHandler('tools/list', async () => d.listings.listingFor(state.agent).result);
  if (surface !== undefined) serveSurface(server, surface, state);
  server.setRequestHandler('tools/call', async (request, mcp) => {
    const tool = d.registry.get(request.params.name);
    if (tool === undefined) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    }
    const progressToken = mcp.mcpReq._meta?.progressToken;
    const envelope = await d.call(
      state,
      tool,
      request.params.arguments,
      progressToken === undefined
        ? noProgress
        : (update) =>
            mcp.mcpReq.notify({
              method: 'notifications/progress',
              params: { progressToken, ...update },
            }),
    );
    return server.projectCallToolResult(callToolResult(envelope), tool.listing.outputSchema);
  });
  return server;
}

function serveSurface(server: Server, surface: McpSurface, state: McpCallState): void {
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
