// The request layer's record of a call, dropped as if its 24 hours had passed (or the store were lost), on
// either key-value adapter: what a repeat then meets is the durable layer alone.
import type { AgentName } from '../../../src/agents/grants.ts';
import type { AnyTool } from '../../../src/contract/define.ts';
import { idempotencyKvKey } from '../../../src/contract/idempotency.ts';
import type { TestServer } from '../../harness/server.ts';

export async function forgetRequest(
  s: TestServer,
  agent: AgentName,
  tool: AnyTool,
  args: Record<string, unknown>,
): Promise<void> {
  const key = tool.idempotencyKey?.of(args);
  if (key === undefined) throw new Error(`${tool.name} has no natural key`);
  await s.kv.delete(idempotencyKvKey({ agent, tool: tool.name, key }));
}
