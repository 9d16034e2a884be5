import { type ErrorCode, errorCatalogue } from './errors.ts';

/** C1: the one result shape of every tool. */
export type Envelope<T = unknown> = OkEnvelope<T> | ErrorEnvelope;

export interface OkEnvelope<T = unknown> {
  ok: true;
  status: 'ok' | 'empty';
  data: T;
  message: string;
  /** Present (true) when this is the stored result of an earlier identical call (C4). */
  replayed?: true;
}

export interface ErrorEnvelope {
  ok: false;
  status: 'error';
  error: { code: ErrorCode; message: string; details?: Record<string, unknown>; hint?: string };
  message: string;
}

/** A tool returns plain data (status ok) or one of these to choose status and message. */
export class ToolResult<T = unknown> {
  readonly status: 'ok' | 'empty';
  readonly data: T;
  readonly message: string | undefined;
  constructor(status: 'ok' | 'empty', data: T, message?: string) {
    this.status = status;
    this.data = data;
    this.message = message;
  }
}

export const ok = <T>(data: T, message?: string): ToolResult<T> => new ToolResult('ok', data, message);
/** Success with nothing to return (a search with no hits); "not found" for a named entity is an error instead. */
export const empty = <T>(data: T, message?: string): ToolResult<T> => new ToolResult('empty', data, message);

export const errorEnvelope = (
  code: ErrorCode,
  message: string,
  extra: { details?: Record<string, unknown>; hint?: string } = {},
): ErrorEnvelope => ({
  ok: false,
  status: 'error',
  error: {
    code,
    message,
    ...(extra.details === undefined ? {} : { details: extra.details }),
    hint: extra.hint ?? errorCatalogue[code].hint,
  },
  message,
});

/**
 * The tool's MCP outputSchema: the envelope, with `data` as the tool's own output schema. MCP wants an
 * object at the root, so both arms of the envelope are one object whose `data` / `error` follow `ok`.
 * `error.code` is a string: the codes are documented once (docs/contract.md "Error codes"), not repeated
 * in every tool.
 */
export const advertisedEnvelope = (data: Record<string, unknown>): Record<string, unknown> => ({
  type: 'object',
  properties: {
    ok: { type: 'boolean' },
    status: { type: 'string' },
    message: { type: 'string' },
    data,
    error: { type: 'object', properties: { code: { type: 'string' } } },
  },
  required: ['ok', 'status', 'message'],
});
