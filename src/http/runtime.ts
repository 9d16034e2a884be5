// What a runtime entry supplies (Node, the MCP Worker, the test harness): the request's stores, background
// work, the queue and the clock. It is defined here once and passed whole; every tool context is built from it
// by `toolContextFor`, for the agents' routes and the owner's console alike.
import type { Context } from 'hono';
import { noProgress, type ToolContext } from '../contract/define.ts';
import { type DrainRun, requestJobs } from '../jobs/context.ts';
import type { DrainReport } from '../jobs/drain.ts';
import type { JobHandler } from '../jobs/queue.ts';
import type { AppEnv } from './context.ts';
import type { RequestServices } from './services.ts';

export interface Runtime {
  /** The stores one request uses (Node: shared by all requests; Workers: opened per request). */
  services(c: Context): Promise<RequestServices>;
  /** The job handlers, by kind, that drains run (the worker route, ctx.jobs.drain, extraction_run). */
  jobHandlers: Readonly<Record<string, JobHandler>>;
  /** Keeps work alive after the response (Workers `executionCtx.waitUntil`; awaited at shutdown on Node). */
  waitUntil(c: Context, work: Promise<unknown>): void;
  /**
   * Drains the queue soon after a tool enqueued (Node: wakes the in-process loop; Workers: a drain under
   * `waitUntil` on its own database handle, since the request's is released with the response).
   */
  kick(c: Context): void;
  /**
   * Runs every drain elsewhere (the MCP Worker: the extraction Worker through its service binding), for the
   * worker route and ctx.jobs.drain; without it drains run here with `jobHandlers`.
   */
  drain?: ((c: Context, run: DrainRun) => Promise<DrainReport>) | undefined;
  /** The server's clock (`ctx.now()`, token expiry, the console); tests pass a controllable one. */
  now(): Date;
}

/** A runtime as an entry gives it: without `waitUntil` or `kick` they do nothing; the clock defaults to the system's. */
export type RuntimeInput = Omit<Runtime, 'waitUntil' | 'kick' | 'now'> &
  Partial<Pick<Runtime, 'waitUntil' | 'kick' | 'now'>>;

export function runtimeFrom(input: RuntimeInput): Runtime {
  return {
    services: input.services,
    jobHandlers: input.jobHandlers,
    drain: input.drain,
    waitUntil: input.waitUntil ?? (() => {}),
    kick: input.kick ?? (() => {}),
    now: input.now ?? (() => new Date()),
  };
}

/** Who calls, as the route that authenticated them knows it. */
export interface Caller {
  agent: string;
  /** The tools the caller is granted: hints and next actions name only tools it holds. */
  grants: ReadonlySet<string>;
  /** The owner principal (the console only). */
  owner?: { id: string; name: string } | undefined;
  /** Names the worker of drains this call runs (`req-…`, `console-…`). */
  workerPrefix: string;
}

/**
 * The one builder of a tool's context, on the request's stores, logger and id (set by the middleware before
 * any route runs). Progress is a no-op; the MCP route replaces it when the caller sent a progressToken.
 */
export function toolContextFor<E extends AppEnv>(
  runtime: Runtime,
  c: Context<E>,
  caller: Caller,
): ToolContext {
  // c.get, not c.var: Hono builds c.var as a new object on every read.
  const { db, kv } = c.get('services');
  const log = c.get('log');
  const requestId = c.get('requestId');
  const { drain } = runtime;
  return {
    db,
    kv,
    agent: caller.agent,
    owner: caller.owner,
    requestId,
    now: runtime.now,
    log,
    progress: noProgress,
    holds: (tool) => caller.grants.has(tool),
    jobs: requestJobs({
      db,
      handlers: runtime.jobHandlers,
      log,
      kick: () => runtime.kick(c),
      workerId: `${caller.workerPrefix}-${requestId}`,
      now: runtime.now,
      drain: drain === undefined ? undefined : (run) => drain(c, run),
    }),
  };
}
