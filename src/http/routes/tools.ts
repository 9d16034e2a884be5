// The same tools as plain JSON, for curl and non-MCP callers: POST /v1/tools/:name (body = arguments,
// response = the envelope, HTTP status = the error code's) and GET /v1/tools (the caller's listing).
import { isJsonContentType, type ListToolsResult } from '@modelcontextprotocol/server';
import type { Hono, MiddlewareHandler } from 'hono';
import { type Envelope, errorEnvelope } from '../../contract/envelope.ts';
import type { RateLimiter } from '../../contract/rate_limit.ts';
import type { Registry } from '../../contract/registry.ts';
import { callAs, type McpCallState } from '../../mcp/state.ts';
import type { AppContext, AppEnv } from '../context.ts';
import { httpStatusOf } from '../errors.ts';

export function mountTools(
  app: Hono<AppEnv>,
  o: {
    registry: Registry;
    guard: MiddlewareHandler<AppEnv>;
    bodyCap: MiddlewareHandler<AppEnv>;
    callState(c: AppContext): McpCallState;
    listFor(agent: string): ListToolsResult;
    rateLimiter?: RateLimiter;
    checkOutputs: boolean;
  },
): void {
  app.post('/v1/tools/:name', o.guard, o.bodyCap, async (c) => {
    const reply = (envelope: Envelope) =>
      c.json(envelope, envelope.ok ? 200 : httpStatusOf(envelope.error.code));
    const name = c.req.param('name');
    const tool = o.registry.get(name);
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
    const state = o.callState(c);
    const envelope = await callAs(state, tool, args, {
      rateLimiter: o.rateLimiter,
      checkOutputs: o.checkOutputs,
    });
    // Every retryable refusal that says when to retry (rate_limited, in_progress) says it in HTTP too.
    const retryAfterMs = envelope.ok ? undefined : envelope.error.details?.retry_after_ms;
    if (typeof retryAfterMs === 'number') {
      c.header('Retry-After', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
    }
    return reply(envelope);
  });

  app.get('/v1/tools', o.guard, (c) => c.json(o.listFor(c.get('agent'))));
}
