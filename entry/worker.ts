// The Cloudflare Workers handlers, given the agent files' texts (entry/cloudflare.ts bundles them): Neon (a
// WebSocket Pool per request) and Upstash Redis from the bindings. The bindings are checked on the first
// request: a missing or bad one answers every request with one `misconfigured` error naming the variable.
import type { ExecutionContext, ScheduledController } from '@cloudflare/workers-types';
import type { Context } from 'hono';
import { parseAgents } from '../src/agents/grants.ts';
import { ConfigError, parseEnv, type WorkerConfig, type WorkerEnv, workerEnvSchema } from '../src/config.ts';
import { errorEnvelope } from '../src/contract/envelope.ts';
import { openNeon } from '../src/db/neon.ts';
import { refuseRequest } from '../src/http/errors.ts';
import { drainJobs } from '../src/jobs/drain.ts';
import { createUpstashKv } from '../src/kv/upstash.ts';
import type { Logger } from '../src/log.ts';
import { createChambers } from '../src/server.ts';
import { jobHandlers, tools } from './registries.ts';

const openDb = (config: WorkerConfig) =>
  openNeon(config.DATABASE_URL, config.NEON_WS_PROXY ? { wsProxy: config.NEON_WS_PROXY } : {});

/**
 * One bounded drain on a database handle of its own, closed when the drain ends: run under `waitUntil`
 * after a kick (the request's handle is released with its response) and from the Cron Trigger.
 */
async function drainDetached(config: WorkerConfig, log: Logger, workerId: string): Promise<void> {
  const handle = openDb(config);
  try {
    const report = await drainJobs({ db: handle.db, handlers: jobHandlers, workerId, log });
    if (report.claimed > 0)
      log.info('drained jobs', { ...report, errors: report.errors.length, worker: workerId });
  } catch (e) {
    log.warn('drain failed', { error: e instanceof Error ? e.message : String(e), worker: workerId });
  } finally {
    await handle.close();
  }
}

type Chambers = ReturnType<typeof createChambers>;

export function createWorker(agentFiles: Record<string, string>) {
  const agents = parseAgents(agentFiles);
  // One app per isolate: the registry and per-agent tool listings are computed once, while database and KV
  // clients are made per request inside `services` (a Workers I/O object cannot outlive its request). An
  // isolate's bindings never change, so a configuration error is kept too.
  let ready: { chambers: Chambers; config: WorkerConfig } | ConfigError | undefined;

  const setUp = (env: WorkerEnv) => {
    if (ready !== undefined) return ready;
    let config: WorkerConfig;
    try {
      config = parseEnv(workerEnvSchema, env);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      console.error(JSON.stringify({ level: 'error', msg: e.message, variables: e.variables }));
      ready = e;
      return ready;
    }
    // The string bindings, as every runtime passes its environment (createChambers reads the shared settings).
    const vars = Object.fromEntries(
      Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
    const chambers: Chambers = createChambers({
      agents,
      tools,
      jobHandlers,
      env: vars,
      services: async () => {
        const handle = openDb(config);
        const kv = createUpstashKv({
          url: config.UPSTASH_REDIS_REST_URL,
          token: config.UPSTASH_REDIS_REST_TOKEN,
        });
        return { db: handle.db, kv, release: () => handle.close() };
      },
      waitUntil: (c: Context, work) => c.executionCtx.waitUntil(work),
      kick: (c: Context) =>
        c.executionCtx.waitUntil(drainDetached(config, chambers.log, `kick-${crypto.randomUUID()}`)),
    });
    ready = { chambers, config };
    return ready;
  };

  return {
    fetch(request: Request, env: WorkerEnv, ctx: ExecutionContext): Response | Promise<Response> {
      const app = setUp(env);
      if (app instanceof ConfigError)
        return refuseRequest(request, errorEnvelope('misconfigured', app.message));
      return app.chambers.app.fetch(request, env, ctx);
    },
    /** The Cron Trigger (wrangler.toml `[triggers] crons`): picks up retries and work no kick reached. */
    scheduled(_controller: ScheduledController, env: WorkerEnv, ctx: ExecutionContext): void {
      const app = setUp(env);
      if (app instanceof ConfigError) throw app;
      ctx.waitUntil(drainDetached(app.config, app.chambers.log, `cron-${crypto.randomUUID()}`));
    },
  };
}
