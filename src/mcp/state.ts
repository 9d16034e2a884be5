import type { ToolContext } from '../contract/define.ts';
import type { Envelope } from '../contract/envelope.ts';
import { callTool } from '../contract/execute.ts';
import type { RateLimiter } from '../contract/rate_limit.ts';
import type { RegisteredTool } from '../contract/registry.ts';

/** What the HTTP layer knows about the caller once the token is checked. */
export interface McpCallState {
  agent: string;
  grants: ReadonlySet<string>;
  /** The agents granted each tool (for tool_not_granted hints). */
  holders: ReadonlyMap<string, readonly string[]>;
  /** The tool context; its `progress` is a no-op unless a call replaces it (MCP with a progressToken). */
  ctx: ToolContext;
  /** The owner's console (…/console), named in approval-mode refusals. */
  consoleUrl?: string;
  /** GOVERNANCE_ENFORCE is on (src/governance/enforce.ts). */
  enforceGovernance?: boolean;
}

/** One tool call through the kernel as the caller of `state`: every route and surface read calls tools so. */
export function callAs(
  state: McpCallState,
  tool: RegisteredTool,
  args: unknown,
  o: {
    checkOutputs?: boolean | undefined;
    rateLimiter?: RateLimiter | undefined;
    progress?: ToolContext['progress'];
  },
): Promise<Envelope> {
  return callTool({
    tool,
    args,
    ctx: o.progress === undefined ? state.ctx : { ...state.ctx, progress: o.progress },
    grants: state.grants,
    holders: state.holders,
    rateLimiter: o.rateLimiter,
    checkOutputs: o.checkOutputs,
    consoleUrl: state.consoleUrl,
    enforceGovernance: state.enforceGovernance,
  });
}
