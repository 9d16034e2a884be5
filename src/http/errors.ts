// The one error body of the HTTP layer (docs/contract.md "Envelope"). Every refusal names a code of the
// catalogue (src/contract/errors.ts), answers with that code's HTTP status, and has one of two shapes:
// - outside /mcp, the tool envelope's error: {ok: false, status: 'error', error: {code, message, hint?, details?},
//   message};
// - on /mcp, a JSON-RPC error, what an MCP client reports: {jsonrpc: '2.0', id: null, error: {code: -32000,
//   message, data: {code, hint?, details?}}}; the SDK's own transport refusals get the same `data`.
// Messages are written here or by the kernel: never a raw zod, SQL or driver message.
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type ErrorEnvelope, errorEnvelope } from '../contract/envelope.ts';
import { type ErrorCode, errorCatalogue } from '../contract/errors.ts';
import { errorToEnvelope } from '../contract/execute.ts';
import type { Logger } from '../log.ts';
import type { AppEnv } from './context.ts';

/** The JSON-RPC error code of every transport-level refusal on /mcp (the MCP SDK uses it for its own). */
const TRANSPORT_ERROR = -32000;

export const httpStatusOf = (code: ErrorCode) => errorCatalogue[code].http as ContentfulStatusCode;

/** `error.data` of a JSON-RPC refusal: the envelope's code, hint and details. */
const rpcData = ({ error }: ErrorEnvelope) => ({
  code: error.code,
  ...(error.hint === undefined ? {} : { hint: error.hint }),
  ...(error.details === undefined ? {} : { details: error.details }),
});

/** The body of a refusal of a request to `path`. */
export function errorBody(path: string, envelope: ErrorEnvelope): unknown {
  if (path !== '/mcp') return envelope;
  return {
    jsonrpc: '2.0',
    id: null,
    error: { code: TRANSPORT_ERROR, message: envelope.error.message, data: rpcData(envelope) },
  };
}

/** A refusal, as a Response, for the request in `c`. */
export const refuse = (c: Context, envelope: ErrorEnvelope, headers?: Record<string, string>) =>
  c.json(errorBody(c.req.path, envelope), httpStatusOf(envelope.error.code), headers);

/** The same for a bare Request, where no Hono app runs (the Workers entry before its app exists). */
export const refuseRequest = (request: Request, envelope: ErrorEnvelope): Response =>
  Response.json(errorBody(new URL(request.url).pathname, envelope), {
    status: httpStatusOf(envelope.error.code),
  });

export const routeNotFound: NotFoundHandler = (c) =>
  refuse(c, errorEnvelope('route_not_found', `No route ${c.req.method} ${c.req.path}.`));

/** Anything a route throws: the kernel's envelope (internal or dependency_unavailable), logged, never the raw error. */
export const errorHandler =
  (log: Logger): ErrorHandler<AppEnv> =>
  (e, c) => {
    const envelope = errorToEnvelope(
      e,
      { requestId: c.get('requestId') ?? 'unknown', log: c.get('log') ?? log },
      'http',
    );
    return envelope.ok ? c.json(envelope) : refuse(c, envelope);
  };

/** Our code for each HTTP status the MCP SDK's transport refuses with. */
const sdkRefusals: Readonly<Record<number, ErrorCode>> = {
  400: 'invalid_request',
  404: 'route_not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

/**
 * The SDK answers malformed requests itself (bad JSON, a wrong Accept or protocol version) with JSON-RPC
 * errors that carry no code of ours: give them the same `data` as our refusals, keeping status, headers and
 * message. Successful and streamed responses pass untouched.
 */
export function withRefusalData(response: Response): Response | Promise<Response> {
  // Not async: an answer (the common case) passes through without a promise of its own.
  if (response.status < 400 || !response.headers.get('content-type')?.includes('application/json')) {
    return response;
  }
  return refusalWithData(response);
}

async function refusalWithData(response: Response): Promise<Response> {
  const body = (await response.clone().json()) as { error?: { message?: unknown; data?: unknown } };
  if (typeof body.error !== 'object' || body.error === null) return response;
  const code = sdkRefusals[response.status] ?? (response.status >= 500 ? 'internal' : 'invalid_request');
  const message = typeof body.error.message === 'string' ? body.error.message : 'The request was refused.';
  const envelope = errorEnvelope(
    code,
    message,
    body.error.data === undefined ? {} : { details: { reason: body.error.data } },
  );
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify({ ...body, error: { ...body.error, data: rpcData(envelope) } }), {
    status: response.status,
    headers,
  });
}
