// POST /mcp: the MCP endpoint (Streamable HTTP, stateless, both protocol eras) behind the guard and the body
// cap. Its refusals are JSON-RPC errors with our code in `error.data` (src/http/errors.ts).
import { isJsonContentType } from '@modelcontextprotocol/server';
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
  app.post('/mcp', o.guard, o.bodyCap, async (c) => {
    // Checked here, before any fast path parses the body: a text/plain POST is what a page on another origin
    // can send without a preflight, so it must never run a tool (the same media-type test as /v1).
    const type = c.req.header('content-type') ?? '';
    if (!isJsonContentType(type)) {
      return refuse(
        c,
        errorEnvelope(
          'unsupported_media_type',
          `Send the JSON-RPC message as application/json, not "${type || 'nothing'}".`,
        ),
      );
    }
    return withRefusalData(await o.endpoint.fetch(c.req.raw, o.callState(c)));
  });
}
