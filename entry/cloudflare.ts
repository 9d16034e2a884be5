// The Cloudflare Workers entry: Neon (WebSocket Pool, per request) and Upstash Redis from the env.
import type { ExecutionContext, ScheduledController } from '@cloudflare/workers-types';
import type { Context } from 'hono';
import analyst from '../agents/analyst.md';
import ceo from '../agents/ceo.md';
import qa from '../agents/qa.md';
import researcher from '../agents/researcher.md';
import writer from '../agents/writer.md';
import { parseAgents } from '../src/agents/grants.ts';
import { openNeon } from '../src/db/neon.ts';
import { drainJobs } from '../src/jobs/drain.ts';
import { createUpstashKv } from '../src/kv/upstash.ts';
import type { Logger } from '../src/log.ts';
import { createChambers } from '../src/server.ts';
import { jobHandlers, tools } from './registries.ts';

export interface WorkerEnv {
  DATABASE_URL: string;
  UPSTASH_REDIS_REST_URL: string;
  UPSTASH_REDIS_REST_TOKEN: string;
  /** Local development only: "127.0.0.1:PORT" of the harness's WebSocket→TCP proxy to a local PostgreSQL. */
  NEON_WS_PROXY?: string;
  [key: string]: unknown;
}

const agents = parseAgents({
  'agents/ceo.md': ceo,
  'agents/analyst.md': analyst,
  'agents/researcher.md': researcher,
  'agents/writer.md': writer,
  'agents/qa.md': qa,
});

const stringEnv = (env: WorkerEnv): Record<string, string | undefined> =>
  Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string'));

// One app per isolate: the registry and per-agent tool listings are computed once, while database and
// KV clients are made per request inside `services` (a Workers I/O object cannot outlive its request).
let chambers: ReturnType<typeof createChambers> | undefined;

const openDb = (env: WorkerEnv) =>
  openNeon(env.DATABASE_URL, env.NEON_WS_PROXY ? { wsProxy: env.NEON_WS_PROXY } : {});

/**
 * One bounded drain on a database handle of its own, closed when the drain ends: run under `waitUntil`
 * after a kick (the request's handle is released with its response) and from the Cron Trigger.
 */
async function drainDetached(env: WorkerEnv, log: Logger, workerId: string): Promise<void> {
  const handle = openDb(env);
  try {
    const report = await drainJobs({
      db: handle.db,
      handlers: jobHandlers,
      workerId,
      log,
    });
    if (report.claimed > 0)
      log.info('drained jobs', { ...report, errors: report.errors.length, worker: workerId });
  } catch (e) {
    log.warn('drain failed', { error: e instanceof Error ? e.message : String(e), worker: workerId });
  } finally {
    await handle.close();
  }
}

function appFor(env: WorkerEnv) {
  if (chambers === undefined) {
    const vars = stringEnv(env);
    chambers = createChambers({
      agents,
      tools,
      jobHandlers,
      env: vars,
      services: async () => {
        const handle = openDb(env);
        const kv = createUpstashKv({ url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN });
        return { db: handle.db, kv, release: () => handle.close() };
      },
      waitUntil: (c: Context, work) => c.executionCtx.waitUntil(work),
      kick: (c: Context) => {
        const log = chambers?.log;
        if (log !== undefined)
          c.executionCtx.waitUntil(drainDetached(env, log, `kick-${crypto.randomUUID()}`));
      },
    });
  }
  return chambers;
}

export default {
  fetch(request: Request, env: WorkerEnv, ctx: ExecutionContext): Response | Promise<Response> {
    return appFor(env).app.fetch(request, env, ctx);
  },
  /** The Cron Trigger (wrangler.toml `[triggers] crons`): picks up retries and work no kick reached. */
  scheduled(_controller: ScheduledController, env: WorkerEnv, ctx: ExecutionContext): void {
    ctx.waitUntil(drainDetached(env, appFor(env).log, `cron-${crypto.randomUUID()}`));
  },
};
