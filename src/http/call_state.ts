// The authenticated caller, its grants and its tool context, as both tool routes (/mcp and /v1/tools) hand
// them to the kernel.
import type { McpCallState } from '../mcp/state.ts';
import { boundedMemo } from '../memo.ts';
import type { AppContext } from './context.ts';
import { type Runtime, toolContextFor } from './runtime.ts';

export interface CallStateOptions {
  grants: ReadonlyMap<string, ReadonlySet<string>>;
  config: { publicUrl: string | null; governanceEnforce?: boolean };
  runtime: Runtime;
}

export function callStateFor(options: CallStateOptions): (c: AppContext) => McpCallState {
  const holders = new Map<string, string[]>();
  for (const [agent, granted] of options.grants) {
    for (const tool of granted) holders.set(tool, [...(holders.get(tool) ?? []), agent]);
  }
  // The console's address per request URL, kept: a URL parse on every call for a value only approval-mode
  // refusals read. Bounded, as a client can vary the Host it sends.
  const consoleUrlOf = boundedMemo(64, (url: string) => `${new URL(url).origin}/console`);
  const configured = options.config.publicUrl === null ? null : `${options.config.publicUrl}/console`;
  return (c) => {
    const agent = c.get('agent');
    const grants = options.grants.get(agent) ?? new Set<string>();
    return {
      agent,
      grants,
      holders,
      // Where the owner decides approval requests: PUBLIC_URL when set, else the origin this call came to.
      consoleUrl: configured ?? consoleUrlOf(c.req.url),
      ctx: toolContextFor(options.runtime, c, { agent, grants, workerPrefix: 'req' }),
      enforceGovernance: options.config.governanceEnforce === true,
    };
  };
}
