// What both /mcp paths share: each agent's tools/list, computed once per agent as the object the SDK sends
// and as the JSON text the fast path sends in each era; a tool call as the caller; the call's MCP result.
import { type ListToolsResult, SERVER_INFO_META_KEY, type Tool } from '@modelcontextprotocol/server';
import type { ToolContext } from '../contract/define.ts';
import type { Envelope } from '../contract/envelope.ts';
import type { RegisteredTool, Registry } from '../contract/registry.ts';
import type { McpCallState } from './state.ts';

export interface ToolListings {
  listingFor(agent: string): { result: ListToolsResult; json: string; modernJson: string };
  /** What the SDK adds to every 2026-07-28 result, and to a tools/list result (a cacheable result). */
  modernMeta: string;
}

/** A registered tool called as the MCP caller, reporting progress to `progress`. */
export type ToolCaller = (
  state: McpCallState,
  tool: RegisteredTool,
  args: unknown,
  progress: ToolContext['progress'],
) => Promise<Envelope>;

export function toolListings(
  registry: Registry,
  grants: ReadonlyMap<string, ReadonlySet<string>>,
  serverInfo: { name: string; version: string },
): ToolListings {
  const listings = new Map<string, { result: ListToolsResult; json: string; modernJson: string }>();
  const modernMeta = JSON.stringify({ [SERVER_INFO_META_KEY]: serverInfo });
  return {
    modernMeta,
    listingFor(agent) {
      let listing = listings.get(agent);
      if (listing === undefined) {
        const granted = grants.get(agent) ?? new Set<string>();
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
    },
  };
}

/** C1 in MCP: the envelope as structuredContent, mirrored as one JSON text block; isError exactly on error. */
export const callToolResult = (envelope: Envelope) => ({
  content: [{ type: 'text' as const, text: JSON.stringify(envelope) }],
  structuredContent: envelope as unknown as Record<string, unknown>,
  isError: !envelope.ok,
});

/**
 * `JSON.stringify(callToolResult(envelope))`, byte for byte, with the envelope serialised once: the text block
 * is the envelope's JSON, and structuredContent is that same JSON (a large result was serialised twice).
 */
export const callToolResultJson = (envelope: Envelope): string => {
  const json = JSON.stringify(envelope);
  return `{"content":[{"type":"text","text":${JSON.stringify(json)}}],"structuredContent":${json},"isError":${!envelope.ok}}`;
};
