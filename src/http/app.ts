// The HTTP app: the middleware (src/http/middleware) and routes (src/http/routes), mounted in order. Every
// refusal has the one body shape of its route family (src/http/errors.ts).
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { AppConfig } from '../config.ts';
import type { RateLimiter } from '../contract/rate_limit.ts';
import type { Registry } from '../contract/registry.ts';
import type { DrainRun } from '../jobs/context.ts';
import type { DrainReport } from '../jobs/drain.ts';
import type { JobHandler } from '../jobs/queue.ts';
import type { Logger } from '../log.ts';
import { createMcpEndpoint } from '../mcp/binding.ts';
import { callStateFor } from './call_state.ts';
import type { AppEnv } from './context.ts';
import { errorHandler, routeNotFound } from './errors.ts';
import { bodyCap } from './middleware/body_cap.ts';
import { guard } from './middleware/guard.ts';
import { requestId } from './middleware/request_id.ts';
import { mountWorkerRoutes } from './routes/drain.ts';
import { mountHealth } from './routes/health.ts';
import { mountMcp } from './routes/mcp.ts';
import { mountTools } from './routes/tools.ts';
import type { RequestServices } from './services.ts';

export interface AppOptions {
  registry: Registry;
  grants: ReadonlyMap<string, ReadonlySet<string>>;
  config: AppConfig;
  services(c: Context): Promise<RequestServices>;
  env: Readonly<Record<string, string | undefined>>;
  log: Logger;
  rateLimiter?: RateLimiter;
  /** Check every result against its tool's output schema (the test suite; see callTool). */
  checkOutputs?: boolean;
  /** Keeps work alive after the response (Workers `executionCtx.waitUntil`). */
  waitUntil?(c: Context, work: Promise<unknown>): void;
  /** The job handlers, by kind, that drains run (the worker route, extraction_run). */
  jobHandlers: Readonly<Record<string, JobHandler>>;
  /**
   * Drains the queue soon after a tool enqueued (Node: wakes the in-process loop; Workers: a drain under
   * `waitUntil` on its own database handle, since the request's is released with the response).
   */
  kick?(c: Context): void;
  /**
   * Runs every drain of this app elsewhere (the MCP Worker: the extraction Worker through its service
   * binding), for the worker route and ctx.jobs.drain; without it drains run here with `jobHandlers`.
   */
  drain?(c: Context, run: DrainRun): Promise<DrainReport>;
  version: string;
  /** The database's fingerprint, shown by /healthz (Node: `npm run token` checks it is minting for this server). */
  databaseId?: string;
  /** The tools' clock (`ctx.now()`); tests pass a controllable one. Defaults to the system clock. */
  now?(): Date;
}

const SERVER_INSTRUCTIONS =
  'Chambers prepares decisions of an Israeli planning-and-building appeals committee. Every tool returns one ' +
  'envelope {ok, status: ok|empty|error, data, message}; "empty" is success with nothing to return; on error ' +
  'follow error.hint. Every change is idempotent: repeating a call returns the first result (created=false), ' +
  'never a duplicate. Lists page with limit (clamped to 1..200) and next_cursor. Owner-gated tools need the ' +
  'human owner’s explicit approval, passed as owner_ack: true with their reason; never assume it. Tools that ' +
  'take a lease_id need a live session lease (lease_expired / lease_revoked: authorize a new session).';

export function createApp(options: AppOptions) {
  const { registry, config, log } = options;
  const checkOutputs = options.checkOutputs ?? false;
  const endpoint = createMcpEndpoint({
    registry,
    grants: options.grants,
    serverInfo: { name: 'chambers', version: options.version },
    instructions: SERVER_INSTRUCTIONS,
    rateLimiter: options.rateLimiter,
    checkOutputs,
    log,
  });
  const gate = guard(options);
  const cap = bodyCap(options);
  const callState = callStateFor(options);

  const app = new Hono<AppEnv>();
  app.use('*', requestId(log));
  mountHealth(app, options);
  mountMcp(app, { endpoint, guard: gate, bodyCap: cap, callState });
  mountTools(app, {
    registry,
    guard: gate,
    bodyCap: cap,
    callState,
    listFor: endpoint.listFor,
    rateLimiter: options.rateLimiter,
    checkOutputs,
  });
  mountWorkerRoutes(app, {
    secret: config.workerSecret,
    handlers: options.jobHandlers,
    services: options.services,
    ...(options.drain === undefined ? {} : { drain: options.drain }),
  });
  app.notFound(routeNotFound);
  app.onError(errorHandler(log));
  return app;
}
