// The Cloudflare Workers entry: Neon (WebSocket Pool, per request) and Upstash Redis from the env.
import type { ExecutionContext } from '@cloudflare/workers-types';
import type { Context } from 'hono';
import analyst from '../../agents/analyst.md';
import ceo from '../../agents/ceo.md';
import qa from '../../agents/qa.md';
import researcher from '../../agents/researcher.md';
import writer from '../../agents/writer.md';
import { parseAgents } from '../agents/grants.ts';
import { openNeon } from '../db/neon.ts';
import { createUpstashKv } from '../kv/upstash.ts';
import { createChambers } from '../server.ts';

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

function appFor(env: WorkerEnv) {
  if (chambers === undefined) {
    const vars = stringEnv(env);
    chambers = createChambers({
      agents,
      env: vars,
      services: async () => {
        const handle = openNeon(env.DATABASE_URL, env.NEON_WS_PROXY ? { wsProxy: env.NEON_WS_PROXY } : {});
        const kv = createUpstashKv({ url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN });
        return { db: handle.db, kv, release: () => handle.close() };
      },
      waitUntil: (c: Context, work) => c.executionCtx.waitUntil(work),
    });
  }
  return chambers;
}

export default {
  fetch(request: Request, env: WorkerEnv, ctx: ExecutionContext): Response | Promise<Response> {
    return appFor(env).app.fetch(request, env, ctx);
  },
};
