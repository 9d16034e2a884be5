import {
  hostHeaderValidationResponse,
  isJsonContentType,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { agentForTokenHash, plausibleToken, tokenHash } from '../auth/tokens.ts';
import { noProgress } from '../contract/define.ts';
import { type Envelope, type ErrorEnvelope, errorEnvelope } from '../contract/envelope.ts';
import { errorCatalogue } from '../contract/errors.ts';
import { callTool, errorToEnvelope } from '../contract/execute.ts';
import type { RateLimiter } from '../contract/rate_limit.ts';
import type { Registry } from '../contract/registry.ts';
import type { Db } from '../db/types.ts';
import { requestJobs } from '../jobs/context.ts';
import type { JobHandler } from '../jobs/queue.ts';
import type { KvStore } from '../kv/types.ts';
import type { Logger } from '../log.ts';
import { createMcpEndpoint, type McpCallState } from '../mcp/binding.ts';
import { mountWorkerRoutes } from './routes/drain.ts';
import type { RequestServices } from './services.ts';

export interface AppConfig {
  /** Origin hostnames allowed besides localhost-class ones; a request without Origin always passes. */
  allowedOrigins: readonly string[];
  /** Host header hostnames allowed; empty means any (a deployment behind a known hostname should list it). */
  allowedHosts: readonly string[];
  /** Cap on request bodies, checked before any parsing. */
  maxBodyBytes: number;
  /** The cap for agents granted a tool that takes file content (`takesUpload`), also before any parsing. */
  maxUploadBodyBytes: number;
  /** The secret of `POST /worker/drain`; null disables the route (every call gets 401). */
  workerSecret: string | null;
}

export interface AppOptions {
  registry: Registry;
  grants: ReadonlyMap<string, ReadonlySet<string>>;
  config: AppConfig;
  services(c: Context): Promise<RequestServices>;
  env: Readonly<Record<string, string | undefined>>;
  log: Logger & { child(fields: Record<string, unknown>): Logger };
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
  version: string;
  /** The tools' clock (`ctx.now()`); tests pass a controllable one. Defaults to the system clock. */
  now?(): Date;
}

type Vars = { requestId: string; agent: string; services: RequestServices; log: Logger };

const SERVER_INSTRUCTIONS =
  'Chambers prepares decisions of an Israeli planning-and-building appeals committee. Every tool returns one ' +
  'envelope {ok, status: ok|empty|error, data, message}; on error follow error.hint. Mutating tools are ' +
  'idempotent: retrying the same call never duplicates anything. Owner-gated tools need the human owner’s ' +
  'explicit approval passed as owner_ack: true with their reason.';

const AUTH_CACHE_MS = 60_000;

export function createApp(options: AppOptions) {
  const { registry, config, log } = options;
  const mcp = createMcpEndpoint({
    registry,
    grants: options.grants,
    serverInfo: { name: 'chambers', version: options.version },
    instructions: SERVER_INSTRUCTIONS,
    rateLimiter: options.rateLimiter,
    checkOutputs: options.checkOutputs ?? false,
    log,
  });
  // A refusal before any tool runs. On /mcp it is a JSON-RPC error object, the shape of every other
  // transport rejection there (405, 403, 415, parse errors) and what an MCP client reports; elsewhere it is
  // the envelope. Either way the HTTP status is the code's and the code is in the body.
  const refuse = (c: Context, envelope: ErrorEnvelope) => {
    const status = errorCatalogue[envelope.error.code].http as ContentfulStatusCode;
    if (c.req.path !== '/mcp') return c.json(envelope, status);
    const { code, message, details, hint } = envelope.error;
    return c.json(
      {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32000,
          message,
          data: { code, ...(details ? { details } : {}), ...(hint ? { hint } : {}) },
        },
      },
      status,
    );
  };
  // Token hash → agent, per app instance: saves a database round trip on every authenticated call.
  // Keyed by the token's SHA-256, like the table: the raw secret is never held or compared.
  const authCache = new Map<string, { agent: string; until: number }>();
  const allowedOrigins = [...localhostAllowedOrigins(), ...config.allowedOrigins];
  const allowedHosts =
    config.allowedHosts.length > 0 ? [...localhostAllowedHostnames(), ...config.allowedHosts] : [];

  const app = new Hono<{ Variables: Vars }>();

  app.use('*', async (c, next) => {
    const given = c.req.header('x-request-id');
    const requestId = given !== undefined && /^[\w.-]{1,100}$/.test(given) ? given : crypto.randomUUID();
    c.set('requestId', requestId);
    c.set('log', log.child({ request_id: requestId }));
    await next();
    c.header('x-request-id', requestId);
  });

  app.get('/healthz', async (c) => {
    const services = await options.services(c);
    const check = async (f: () => Promise<unknown>) => {
      try {
        await f();
        return 'up' as const;
      } catch {
        return 'down' as const;
      }
    };
    try {
      const [db, kv] = await Promise.all([
        check(() => services.db.execute('select 1')),
        check(() => services.kv.ping()),
      ]);
      const healthy = db === 'up' && kv === 'up';
      return c.json(
        { ok: healthy, db, kv: { status: kv, kind: services.kv.kind }, version: options.version },
        healthy ? 200 : 503,
      );
    } finally {
      await services.release?.();
    }
  });

  // The transport serves POST only: no GET stream that would hang, no sessions to DELETE.
  app.on(['GET', 'DELETE', 'PUT', 'PATCH'], '/mcp', (c) =>
    c.json({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed.' } }, 405, {
      Allow: 'POST',
    }),
  );

  const guard = async (c: Context<{ Variables: Vars }>, next: () => Promise<void>) => {
    if (allowedHosts.length > 0) {
      const rejected = hostHeaderValidationResponse(c.req.raw, allowedHosts);
      if (rejected !== undefined) return rejected;
    }
    const rejected = originValidationResponse(c.req.raw, allowedOrigins);
    if (rejected !== undefined) return rejected;
    const auth = c.req.header('authorization') ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(auth)?.[1];
    const challenge = (description: string) =>
      c.json({ error: 'invalid_token', error_description: description }, 401, {
        'WWW-Authenticate': `Bearer realm="chambers", error="invalid_token", error_description="${description}"`,
      });
    if (token === undefined) return challenge('A bearer token is required (Authorization: Bearer <token>).');
    if (!plausibleToken(token)) return challenge('The token is not valid.');
    const services = await options.services(c);
    c.set('services', services);
    let released = false;
    const release = async () => {
      if (!released) {
        released = true;
        await services.release?.();
      }
    };
    try {
      const hash = tokenHash(token);
      const cached = authCache.get(hash);
      let agent = cached !== undefined && cached.until > Date.now() ? cached.agent : null;
      if (agent === null) {
        agent = await agentForTokenHash(services.db, hash);
        if (agent !== null) authCache.set(hash, { agent, until: Date.now() + AUTH_CACHE_MS });
      }
      if (agent === null || !options.grants.has(agent)) {
        await release();
        return challenge('The token is not valid.');
      }
      c.set('agent', agent);
    } catch (e) {
      await release();
      const envelope = errorToEnvelope(e, { requestId: c.get('requestId'), log: c.get('log') }, 'auth');
      return envelope.ok ? c.json(envelope) : refuse(c, envelope);
    }
    try {
      await next();
    } finally {
      // Shared stores (Node) have nothing to release; checking that first avoids touching c.res at all.
      const body = services.release === undefined ? null : c.res.body;
      if (body === null) {
        await release();
      } else {
        // A streamed (SSE) response is still being written: release the stores only when it ends.
        const { readable, writable } = new TransformStream();
        const done = body.pipeTo(writable).finally(release);
        options.waitUntil?.(c, done);
        c.res = new Response(readable, c.res);
      }
    }
  };

  // Capped before any parsing or hashing; a body without Content-Length is counted as it streams. Agents
  // granted an upload tool get the larger cap: the caller is known (auth runs first), the tool is not yet.
  const capped = (maxBytes: number) =>
    bodyLimit({
      maxSize: maxBytes,
      onError: (c) =>
        refuse(
          c,
          errorEnvelope('payload_too_large', `The request body exceeds ${maxBytes} bytes.`, {
            details: { max_bytes: maxBytes },
          }),
        ),
    });
  const smallBodies = capped(config.maxBodyBytes);
  const uploadBodies = capped(Math.max(config.maxBodyBytes, config.maxUploadBodyBytes));
  const uploaders = new Set(
    [...options.grants]
      .filter(([, granted]) =>
        [...granted].some((name) => options.registry.get(name)?.def.takesUpload === true),
      )
      .map(([agent]) => agent),
  );
  const limit: MiddlewareHandler<{ Variables: Vars }> = (c, next) =>
    (uploaders.has(c.get('agent')) ? uploadBodies : smallBodies)(c, next);

  const holders = new Map<string, string[]>();
  for (const [agent, granted] of options.grants) {
    for (const tool of granted) holders.set(tool, [...(holders.get(tool) ?? []), agent]);
  }
  /** The authenticated caller, its grants and its tool context, as both tool routes hand them on. */
  const callState = (c: Context<{ Variables: Vars }>): McpCallState => {
    const services = c.get('services');
    const agent = c.get('agent');
    const grants = options.grants.get(agent) ?? new Set<string>();
    return {
      agent,
      grants,
      holders,
      ctx: {
        holds: (tool) => grants.has(tool),
        db: services.db,
        kv: services.kv,
        agent,
        requestId: c.get('requestId'),
        now: options.now ?? (() => new Date()),
        env: options.env,
        log: c.get('log'),
        waitUntil: (work) => options.waitUntil?.(c, work),
        jobs: requestJobs({
          db: services.db,
          handlers: options.jobHandlers,
          log: c.get('log'),
          kick: () => options.kick?.(c),
          workerId: `req-${c.get('requestId')}`,
        }),
      },
    };
  };

  app.post('/mcp', guard, limit, async (c) => mcp.fetch(c.req.raw, callState(c)));

  // The same tools as plain JSON, for curl and non-MCP callers: body = arguments, response = envelope.
  app.post('/v1/tools/:name', guard, limit, async (c) => {
    const reply = (envelope: Envelope) =>
      c.json(envelope, envelope.ok ? 200 : (errorCatalogue[envelope.error.code].http as 400));
    const name = c.req.param('name');
    const tool = registry.get(name);
    if (tool === undefined) {
      return reply(
        errorEnvelope('not_found', `No tool named ${name}`, {
          hint: 'GET /v1/tools lists the tools this token may call.',
        }),
      );
    }
    const type = c.req.header('content-type') ?? '';
    // The same media-type test as /mcp: "application/json-patch+json" or "application/jsonx" is not JSON.
    if (!isJsonContentType(type)) {
      return reply(
        errorEnvelope(
          'unsupported_media_type',
          `Send the arguments as application/json, not "${type || 'nothing'}".`,
        ),
      );
    }
    let args: unknown;
    const text = await c.req.text();
    try {
      args = text.trim() === '' ? {} : JSON.parse(text);
    } catch {
      return reply(errorEnvelope('invalid_args', 'The body is not valid JSON.'));
    }
    const state = callState(c);
    const envelope = await callTool({
      tool,
      args,
      ctx: { ...state.ctx, progress: noProgress },
      grants: state.grants,
      holders: state.holders,
      rateLimiter: options.rateLimiter,
      checkOutputs: options.checkOutputs ?? false,
    });
    // Every retryable refusal that says when to retry (rate_limited, in_progress) says it in HTTP too.
    const retryAfterMs = envelope.ok ? undefined : envelope.error.details?.retry_after_ms;
    if (typeof retryAfterMs === 'number') {
      c.header('Retry-After', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
    }
    return reply(envelope);
  });

  app.get('/v1/tools', guard, (c) => c.json(mcp.listFor(c.get('agent'))));

  mountWorkerRoutes(app, {
    secret: config.workerSecret,
    handlers: options.jobHandlers,
    services: options.services,
  });

  app.notFound((c) => c.json({ error: 'not_found', message: `No route ${c.req.method} ${c.req.path}` }, 404));
  app.onError((e, c) => {
    const envelope = errorToEnvelope(
      e,
      { requestId: c.get('requestId') ?? 'unknown', log: c.get('log') ?? log },
      'http',
    );
    return envelope.ok ? c.json(envelope) : refuse(c, envelope);
  });

  return app;
}
