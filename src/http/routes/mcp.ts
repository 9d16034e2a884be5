// POST /mcp: the MCP endpoint (Streamable HTTP, stateless, both protocol eras) behind the guard and the body
// cap. Its refusals are JSON-RPC errors with our code in `error.data` (src/http/errors.ts).
import type { Hono, MiddlewareHandler } from 'hono';
import { errorEnvelope } from '../../contract/envelope.ts';
import type { McpCallState } from '../../mcp/binding.ts';
import type { AppContext, AppEnv } from '../context.ts';
import { refuse, withRefusalData } from '../errors.ts';

export function mountMcp(
  app: Hono<AppEnv>,
  o: {
    endpoint: { fetch(request: Request, state: McpCallState): Promise<Response> };
    guard: MiddlewareHandler<AppEnv>;
    bodyCap: MiddlewareHandler<AppEnv>;
    callState(c: AppContext): McpCallState;
  },
): void {
  // The transport serves POST only: no GET stream that would hang, no sessions to DELETE.
  app.on(['GET', 'DELETE', 'PUT', 'PATCH'], '/mcp', (c) =>
    refuse(c, errorEnvelope('method_not_allowed', 'Method not allowed.'), { Allow: 'POST' }),
  );
  app.post('/mcp', o.guard, o.bodyCap, async (c) =>
    withRefusalData(await o.endpoint.fetch(c.req.raw, o.callState(c))),
  );
}
