// A ToolContext for calling the kernel directly (callTool) on real stores, without the HTTP layer.
import type { ToolContext } from '../../src/contract/define.ts';
import { noJobs } from '../../src/jobs/context.ts';
import { createLogger } from '../../src/log.ts';

export function toolContext(
  stores: Pick<ToolContext, 'db' | 'kv'>,
  overrides: Partial<Omit<ToolContext, 'db' | 'kv'>> = {},
): ToolContext {
  return {
    ...stores,
    agent: 'ceo',
    requestId: `req-${crypto.randomUUID()}`,
    now: () => new Date(),
    log: createLogger('silent'),
    progress: async () => {},
    jobs: noJobs,
    holds: () => true,
    ...overrides,
  };
}
