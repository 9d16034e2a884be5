// The authenticated caller, its grants and its tool context, as both tool routes (/mcp and /v1/tools) hand
// them to the kernel.
import type { Context } from 'hono';
import { type DrainRun, requestJobs } from '../jobs/context.ts';
import type { DrainReport } from '../jobs/drain.ts';
import type { JobHandler } from '../jobs/queue.ts';
import type { McpCallState } from '../mcp/binding.ts';
import type { AppContext } from './context.ts';

export interface CallStateOptions {
  grants: ReadonlyMap<string, ReadonlySet<string>>;
  config: { publicUrl: string | null };
  env: Readonly<Record<string, string | undefined>>;
  jobHandlers: Readonly<Record<string, JobHandler>>;
  waitUntil?(c: Context, work: Promise<unknown>): void;
  kick?(c: Context): void;
  /** Drains elsewhere (AppOptions.drain). */
  drain?(c: Context, run: DrainRun): Promise<DrainReport>;
  now?(): Date;
}

export function callStateFor(options: CallStateOptions): (c: AppContext) => McpCallState {
  const holders = new Map<string, string[]>();
  for (const [agent, granted] of options.grants) {
    for (const tool of granted) holders.set(tool, [...(holders.get(tool) ?? []), agent]);
  }
  const now = options.now ?? (() => new Date());
  return (c) => {
    const services = c.get('services');
    const agent = c.get('agent');
    const grants = options.grants.get(agent) ?? new Set<string>();
    return {
      agent,
      grants,
      holders,
      // Where the owner decides approval requests: PUBLIC_URL when set, else the origin this call came to.
      consoleUrl: `${options.config.publicUrl ?? new URL(c.req.url).origin}/console`,
      ctx: {
        holds: (tool) => grants.has(tool),
        db: services.db,
        kv: services.kv,
        agent,
        requestId: c.get('requestId'),
        now,
        env: options.env,
        log: c.get('log'),
        waitUntil: (work) => options.waitUntil?.(c, work),
        jobs: requestJobs({
          db: services.db,
          handlers: options.jobHandlers,
          log: c.get('log'),
          kick: () => options.kick?.(c),
          workerId: `req-${c.get('requestId')}`,
          now,
          drain:
            options.drain === undefined
              ? undefined
              : (run) => options.drain?.(c, run) as Promise<DrainReport>,
        }),
      },
    };
  };
}
