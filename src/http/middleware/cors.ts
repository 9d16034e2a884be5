// CORS for the tool routes (/mcp, /v1/*), so a browser-based MCP client on an allowed origin can call them: a
// preflight (OPTIONS) from an allowed Origin is answered 204 allowing the MCP headers, and every response to
// such an origin names it and exposes the MCP headers. Any other Origin (or Host) is refused in the one error
// shape and gets no CORS header, so the browser keeps the page out. The allowlists are the guard's.
import type { Context, MiddlewareHandler, Next } from 'hono';
import type { AppConfig } from '../../config.ts';
import type { AppEnv } from '../context.ts';
import { edgeAllowlists, hostAndOriginAllowed, refuseHostOrOrigin } from './guard.ts';

/** What a client may send: the bearer token, JSON, and the Streamable HTTP transport's headers. */
export const CORS_ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  'accept',
  'mcp-session-id',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'last-event-id',
  'x-request-id',
] as const;

/** What a browser client may read of a response: the transport's headers, the request id, the 401 challenge. */
export const CORS_EXPOSED_HEADERS = [
  'mcp-session-id',
  'mcp-protocol-version',
  'x-request-id',
  'www-authenticate',
  'retry-after',
] as const;

/**
 * The 2026-07-28 transport mirrors parameters in `Mcp-Param-<name>` headers: allowed when a preflight asks for
 * them (the name in header-name characters, RFC 9110 token, lower-cased).
 */
const PARAM_HEADER = /^mcp-param-[a-z0-9!#$%&'*+.^_`|~-]{1,64}$/;

const methodsOf = (path: string) => (path === '/mcp' ? 'POST' : 'GET, POST');

function corsHeaders(origin: string): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': CORS_EXPOSED_HEADERS.join(', '),
    Vary: 'Origin',
  };
}

export function cors(config: Pick<AppConfig, 'allowedOrigins' | 'allowedHosts'>): MiddlewareHandler<AppEnv> {
  const lists = edgeAllowlists(config);
  const preflight = (c: Context<AppEnv>, origin: string | undefined) => {
    const refused = refuseHostOrOrigin(c, lists);
    if (refused !== null) return refused;
    const allow = methodsOf(c.req.path);
    // No Origin: not a browser's preflight; say what the route serves.
    if (origin === undefined || origin === '') return c.body(null, 204, { Allow: allow });
    const asked = (c.req.header('access-control-request-headers') ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter((h) => PARAM_HEADER.test(h));
    return c.body(null, 204, {
      ...corsHeaders(origin),
      Allow: allow,
      'Access-Control-Allow-Methods': allow,
      'Access-Control-Allow-Headers': [...CORS_ALLOWED_HEADERS, ...new Set(asked)].join(', '),
      'Access-Control-Max-Age': '600',
    });
  };
  const named = async (c: Context<AppEnv>, next: Next, origin: string) => {
    await next();
    // Only an allowed Origin reaches a route's answer with it named (the guard refuses the others), but a
    // refusal before the guard (a Host not allowed) must not name it either.
    if (hostAndOriginAllowed(c, lists)) {
      // A copy: the headers of a response made elsewhere (the MCP SDK's) may be immutable.
      const headers = new Headers(c.res.headers);
      for (const [name, value] of Object.entries(corsHeaders(origin))) headers.set(name, value);
      c.res = new Response(c.res.body, { status: c.res.status, statusText: c.res.statusText, headers });
    }
  };
  // Not async: a request without an Origin (every non-browser client) goes straight on.
  return (c, next) => {
    const origin = c.req.header('origin');
    if (c.req.method === 'OPTIONS') return Promise.resolve(preflight(c, origin));
    if (origin === undefined || origin === '') return next();
    return named(c, next, origin);
  };
}
