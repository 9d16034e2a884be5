// The MCP Worker's handlers (tools, /mcp, /v1), given the agent files' texts (entry/cloudflare.ts bundles them):
// Neon (a WebSocket Pool per request) and Upstash Redis from the bindings. It runs no job and holds no heavy
// library (wrangler.toml aliases them away): every drain — a kick, the Cron Trigger, POST /worker/drain,
// extraction_run — goes to the extraction Worker (entry/extraction.ts) through the EXTRACTION service binding.
// The bindings are checked on the first request: a missing or bad one answers every request with one
// `misconfigured` error naming it.
import type { ExecutionContext, ScheduledController } from '@cloudflare/workers-types';
import type { Context } from 'hono';
import { parseAgents } from '../src/agents/grants.ts';
import { ConfigError, parseEnv, type WorkerConfig, type WorkerEnv, workerEnvSchema } from '../src/config.ts';
import { errorEnvelope } from '../src/contract/envelope.ts';
import { openNeon } from '../src/db/neon.ts';
import { refuseRequest } from '../src/http/errors.ts';
import type { DrainRun } from '../src/jobs/context.ts';
import { type ExtractionBinding, remoteDrain } from '../src/jobs/remote.ts';
import { createUpstashKv } from '../src/kv/upstash.ts';
import type { Logger } from '../src/log.ts';
import { createChambers } from '../src/server.ts';
import { jobHandlers, tools } from './registries.ts';

/** The bindings: wrangler.toml's vars and the secrets, plus the service binding to the extraction Worker. */
export type McpWorkerEnv = WorkerEnv & { EXTRACTION?: ExtractionBinding };

const openDb = (config: WorkerConfig) =>
  openNeon(config.DATABASE_URL, config.NEON_WS_PROXY ? { wsProxy: config.NEON_WS_PROXY } : {});

type Chambers = ReturnType<typeof createChambers>;
type Ready = { chambers: Chambers; config: WorkerConfig; extraction: ExtractionBinding };

/** One drain by the extraction Worker, of this Worker's database. */
const drainThere = (ready: Pick<Ready, 'config' | 'extraction'>, run: DrainRun) =>
  remoteDrain(ready.extraction, {
    database_url: ready.config.DATABASE_URL,
    ...(ready.config.NEON_WS_PROXY ? { neon_ws_proxy: ready.config.NEON_WS_PROXY } : {}),
    log_level: ready.config.LOG_LEVEL,
    worker_id: run.workerId,
    ...(run.maxJobs === undefined ? {} : { max_jobs: run.maxJobs }),
    ...(run.budgetMs === undefined ? {} : { budget_ms: run.budgetMs }),
    ...(run.kinds === undefined ? {} : { kinds: [...run.kinds] }),
  });

/** A drain nobody waits for (after a kick, from the Cron Trigger): its outcome goes to the log. */
async function drainDetached(ready: Omit<Ready, 'chambers'>, log: Logger, workerId: string): Promise<void> {
  try {
    const report = await drainThere(ready, { workerId });
    if (report.claimed > 0)
      log.info('drained jobs', { ...report, errors: report.errors.length, worker: workerId });
  } catch (e) {
    log.warn('drain failed', { error: e instanceof Error ? e.message : String(e), worker: workerId });
  }
}

export function createWorker(agentFiles: Record<string, string>) {
  const agents = parseAgents(agentFiles);
  // One app per isolate: the registry and per-agent tool listings are computed once, while database and KV
  // clients are made per request inside `services` (a Workers I/O object cannot outlive its request). An
  // isolate's bindings never change, so a configuration error is kept too.
  let ready: Ready | ConfigError | undefined;

  const setUp = (env: McpWorkerEnv) => {
    if (ready !== undefined) return ready;
    let config: WorkerConfig;
    try {
      config = parseEnv(workerEnvSchema, env);
      if (typeof env.EXTRACTION?.fetch !== 'function') {
        throw new ConfigError([
          {
            variable: 'EXTRACTION',
            message: 'is not bound (wrangler.toml [[services]]: the extraction Worker, chambers-extraction)',
          },
        ]);
      }
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      console.error(JSON.stringify({ level: 'error', msg: e.message, variables: e.variables }));
      ready = e;
      return ready;
    }
    const extraction = env.EXTRACTION;
    const there = { config, extraction };
    // The string bindings, as every runtime passes its environment (createChambers reads the shared settings).
    const vars = Object.fromEntries(
      Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
    const chambers: Chambers = createChambers({
      agents,
      tools,
      // The kinds are known here (extraction_status, extraction_run); their handlers run only over there.
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
        c.executionCtx.waitUntil(drainDetached(there, chambers.log, `kick-${crypto.randomUUID()}`)),
      drain: (_c: Context, run: DrainRun) => drainThere(there, run),
    });
    ready = { chambers, config, extraction };
    return ready;
  };

  return {
    fetch(request: Request, env: McpWorkerEnv, ctx: ExecutionContext): Response | Promise<Response> {
      const app = setUp(env);
      if (app instanceof ConfigError)
        return refuseRequest(request, errorEnvelope('misconfigured', app.message));
      return app.chambers.app.fetch(request, env, ctx);
    },
    /** The Cron Trigger (wrangler.toml `[triggers] crons`): picks up retries and work no kick reached. */
    scheduled(_controller: ScheduledController, env: McpWorkerEnv, ctx: ExecutionContext): void {
      const app = setUp(env);
      if (app instanceof ConfigError) throw app;
      ctx.waitUntil(drainDetached(app, app.chambers.log, `cron-${crypto.randomUUID()}`));
    },
  };
}
