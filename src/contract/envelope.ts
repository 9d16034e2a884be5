import { z } from 'zod';
import { type ErrorCode, errorCatalogue, errorCodes } from './errors.ts';

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
 * The JSON Schema every tool advertises as its MCP outputSchema. MCP wants an object at the root, so the
 * two arms of the envelope are one object whose `data` / `error` presence follows `ok`.
 */
export const envelopeSchema = z.object({
  ok: z.boolean().describe('true for status ok/empty, false for status error'),
  status: z.enum(['ok', 'empty', 'error']),
  data: z.unknown().optional().describe('The result; present when ok is true'),
  error: z
    .object({
      code: z.enum(errorCodes as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
      hint: z.string().optional().describe('How to recover'),
    })
    .optional()
    .describe('Present when ok is false'),
  message: z.string(),
  replayed: z.literal(true).optional().describe('The stored result of an earlier identical call'),
});

export const envelopeJsonSchema = z.toJSONSchema(envelopeSchema, { io: 'output' }) as Record<string, unknown>;
