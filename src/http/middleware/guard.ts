// The gate of the tool routes: the Host header (when ALLOWED_HOSTS is set, or the server listens on
// loopback) and the Origin header (DNS-rebinding protection), then the bearer token → agent. It opens the
// request's stores and releases them when the response has been sent, also a streamed one.
import {
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import type { Context, MiddlewareHandler } from 'hono';
import type { TokenCache } from '../../auth/token_cache.ts';
import { authenticateTokenHash, plausibleToken, revocationGeneration, tokenHash } from '../../auth/tokens.ts';
import type { AppConfig } from '../../config.ts';
import { errorEnvelope } from '../../contract/envelope.ts';
import { errorToEnvelope } from '../../contract/execute.ts';
import { withFields } from '../../log.ts';
import { boundedMemo } from '../../memo.ts';
import type { AppEnv } from '../context.ts';
import { refuse } from '../errors.ts';
import type { Runtime } from '../runtime.ts';

export interface GuardOptions {
  config: Pick<AppConfig, 'allowedOrigins' | 'allowedHosts'>;
  /** The agents that may call; a token of any other agent is refused like a wrong one. */
  grants: ReadonlyMap<string, unknown>;
  /** The request's stores; its clock judges token expiry and the cache's lifetime. */
  runtime: Pick<Runtime, 'services' | 'waitUntil' | 'now'>;
  /**
   * Token hash → agent for this app instance (AUTH_CACHE=process), or null: every call looks its token up
   * (AUTH_CACHE=off). It holds no request data; the stores are still opened per request.
   */
  cache: TokenCache | null;
}

/** The 401 answer: the error body with the challenge header RFC 6750 asks for. */
export const challenge = (c: Context, message: string, realm = 'chambers', hint?: string) =>
  refuse(c, errorEnvelope('unauthorized', message, hint === undefined ? {} : { hint }), {
    'WWW-Authenticate': `Bearer realm="${realm}", error="invalid_token", error_description="${message}"`,
  });

/** The bearer token of the Authorization header, if there is one. */
export const bearerToken = (c: Context): string | undefined =>
  /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];

/**
 * How many verdicts per header each allowlist remembers: the SDK's check parses a URL (a few µs a call), and a
 * server sees a handful of distinct Host and Origin values.
 */
const VERDICTS_KEPT = 256;

/** The Origin and Host allowlists of the tool routes (and their CORS preflights, cors.ts), with their checks. */
export function edgeAllowlists(config: Pick<AppConfig, 'allowedOrigins' | 'allowedHosts'>) {
  const origins = [...localhostAllowedOrigins(), ...config.allowedOrigins];
  // Empty: any Host (ALLOWED_HOSTS unset on a server not bound to loopback, config.ts hostAllowlist).
  const hosts =
    config.allowedHosts.length > 0 ? [...localhostAllowedHostnames(), ...config.allowedHosts] : [];
  return {
    anyHost: hosts.length === 0,
    hostOk: boundedMemo(VERDICTS_KEPT, (host: string | undefined) => validateHostHeader(host, hosts).ok),
    originOk: boundedMemo(
      VERDICTS_KEPT,
      (origin: string | undefined) => validateOriginHeader(origin, origins).ok,
    ),
  };
}

type Allowlists = ReturnType<typeof edgeAllowlists>;

const hostAllowed = (c: Context, lists: Allowlists) => lists.anyHost || lists.hostOk(c.req.header('host'));
const originAllowed = (c: Context, lists: Allowlists) => lists.originOk(c.req.header('origin'));

/** Whether the request's Host and Origin are both allowed. */
export const hostAndOriginAllowed = (c: Context, lists: Allowlists) =>
  hostAllowed(c, lists) && originAllowed(c, lists);

/** The refusal of a request whose Host or Origin is not allowed (DNS-rebinding protection), or null. */
export function refuseHostOrOrigin(c: Context, lists: Allowlists): Response | null {
  if (!hostAllowed(c, lists)) {
    const host = c.req.header('host');
    return refuse(
      c,
      errorEnvelope('host_not_allowed', `The Host ${JSON.stringify(host ?? '')} is not allowed.`),
    );
  }
  if (!originAllowed(c, lists)) {
    const origin = c.req.header('origin');
    return refuse(
      c,
      errorEnvelope('origin_not_allowed', `The Origin ${JSON.stringify(origin)} is not allowed.`),
    );
  }
  return null;
}

export function guard(options: GuardOptions): MiddlewareHandler<AppEnv> {
  const lists = edgeAllowlists(options.config);
  const { cache } = options;

  return async (c, next) => {
    const refused = refuseHostOrOrigin(c, lists);
    if (refused !== null) return refused;
    const token = bearerToken(c);
    if (token === undefined)
      return challenge(c, 'A bearer token is required (Authorization: Bearer <token>).');
    if (!plausibleToken(token)) return challenge(c, 'The token is not valid.');

    const services = await options.runtime.services(c);
    c.set('services', services);
    let released = false;
    // Shared stores (Node) have nothing to release: no closure to make per request.
    const release =
      services.release === undefined
        ? undefined
        : async () => {
            if (!released) {
              released = true;
              await services.release?.();
            }
          };
    try {
      // Keyed by the token's SHA-256, like the table: the raw secret is never held or compared.
      const hash = tokenHash(token);
      const now = options.runtime.now();
      let agent = cache?.get(hash, now.getTime()) ?? null;
      if (agent === null) {
        // Read before the lookup: a revocation committing meanwhile leaves the new entry stale (token_cache.ts).
        const generation = revocationGeneration();
        const found = await authenticateTokenHash(services.db, hash, now);
        agent = found?.agent ?? null;
        c.get('log').debug?.('token looked up', { found: found !== null, ...(found ? { agent } : {}) });
        if (found !== null) cache?.set(hash, found, now.getTime(), generation);
      }
      if (agent === null || !options.grants.has(agent)) {
        await release?.();
        return challenge(c, 'The token is not valid.');
      }
      c.set('agent', agent);
      // From here on every line of this request names its agent.
      c.set('log', withFields(c.get('log'), { agent }));
    } catch (e) {
      await release?.();
      const envelope = errorToEnvelope(e, { requestId: c.get('requestId'), log: c.get('log') }, 'auth');
      return envelope.ok ? c.json(envelope) : refuse(c, envelope);
    }
    if (release === undefined) return next();
    try {
      await next();
    } finally {
      const body = c.res.body;
      if (body === null) {
        await release();
      } else {
        // A streamed (SSE) response is still being written: release the stores only when it ends.
        const { readable, writable } = new TransformStream();
        const done = body.pipeTo(writable).finally(release);
        options.runtime.waitUntil(c, done);
        c.res = new Response(readable, c.res);
      }
    }
  };
}
