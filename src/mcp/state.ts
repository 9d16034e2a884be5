import type { ToolContext } from '../contract/define.ts';

/** What the HTTP layer knows about the caller once the token is checked. */
export interface McpCallState {
  agent: string;
  grants: ReadonlySet<string>;
  /** The agents granted each tool (for tool_not_granted hints). */
  holders: ReadonlyMap<string, readonly string[]>;
  /** The tool context without progress, which only the MCP request can provide. */
  ctx: Omit<ToolContext, 'progress'>;
  /** The owner's console (…/console), named in approval-mode refusals. */
  consoleUrl?: string;
}
