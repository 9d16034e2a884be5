// Every request gets an id: the caller's x-request-id when it is well-formed, else a fresh UUID. It is echoed
// in the response header, set on the context and carried by every log line of the request.
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../../log.ts';
import type { AppEnv } from '../context.ts';

const WELL_FORMED = /^[\w.-]{1,100}$/;

export function requestId(
  log: Logger & { child(fields: Record<string, unknown>): Logger },
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const given = c.req.header('x-request-id');
    const id = given !== undefined && WELL_FORMED.test(given) ? given : crypto.randomUUID();
    c.set('requestId', id);
    c.set('log', log.child({ request_id: id }));
    await next();
    c.header('x-request-id', id);
  };
}
