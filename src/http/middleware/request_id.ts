// Every request gets an id: the caller's x-request-id when it is well-formed, else a fresh UUID. It is echoed
// in the response header, set on the context and carried by every log line of the request.
import type { MiddlewareHandler } from 'hono';
import { type Logger, withFields } from '../../log.ts';
import type { AppEnv } from '../context.ts';

const WELL_FORMED = /^[\w.-]{1,100}$/;

/**
 * Marks a response that already names its request id in its headers (`respondWithRequestId`). The middleware
 * then leaves it alone: reading `res.headers` turns the Node adapter's plain header object into a Headers
 * instance, which the adapter must then copy and sort again to write (~3–9 µs a call, the bulk of what the
 * write of a no-op tools/call cost over the echo's write of the same bytes).
 */
const NAMED = Symbol('x-request-id set');

/** A response whose headers are a plain object that already carries x-request-id (the /mcp hot path). */
export function respondWithRequestId(body: string, headers: Record<string, string>, id: string): Response {
  const response = new Response(body, { status: 200, headers: { ...headers, 'x-request-id': id } });
  Object.defineProperty(response, NAMED, { value: true });
  return response;
}

export function requestId(log: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const given = c.req.header('x-request-id');
    const id = given !== undefined && WELL_FORMED.test(given) ? given : crypto.randomUUID();
    c.set('requestId', id);
    c.set('log', withFields(log, { request_id: id }));
    const started = Date.now();
    await next();
    // On the response's own headers: c.header() on a finished response copies it into a new one, whose
    // body is then a stream (the Node adapter's fast write of a string body is lost; ~10% of a small call).
    try {
      if (!(NAMED in c.res)) c.res.headers.set('x-request-id', id);
    } catch {
      // Immutable headers (a response passed through from fetch): Hono copies the response.
      c.header('x-request-id', id);
    }
    // The guard has added the agent to the request's logger by now, when there is one.
    c.get('log').debug?.('request', {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      duration_ms: Date.now() - started,
    });
  };
}
