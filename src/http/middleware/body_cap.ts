// The request body cap, checked before any parsing or hashing; a body without Content-Length is counted as it
// streams. Agents granted a tool that takes file content (`takesUpload`) get the larger cap: the caller is
// known (the guard runs first), the tool is not yet.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppConfig } from '../../config.ts';
import { errorEnvelope } from '../../contract/envelope.ts';
import type { Registry } from '../../contract/registry.ts';
import type { AppEnv } from '../context.ts';
import { refuse } from '../errors.ts';

export interface BodyCapOptions {
  config: Pick<AppConfig, 'maxBodyBytes' | 'maxUploadBodyBytes'>;
  grants: ReadonlyMap<string, ReadonlySet<string>>;
  registry: Registry;
}

const capped = (maxBytes: number): MiddlewareHandler<AppEnv> => {
  const tooLarge = (c: Context) =>
    refuse(
      c,
      errorEnvelope('payload_too_large', `The request body exceeds ${maxBytes} bytes.`, {
        details: { max_bytes: maxBytes },
      }),
    );
  const counted = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  // Not async: a request with a declared length goes straight on (no promise of its own per request).
  return (c, next) => {
    // A declared length decides from the header alone, as bodyLimit does, but without asking for
    // `req.raw.body` first: on Node that builds a web stream over the socket, and the body is then read
    // through it (~10% of a small call) instead of straight from the socket.
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (Number.parseInt(length, 10) > maxBytes) return Promise.resolve(tooLarge(c));
      return next();
    }
    return counted(c, next);
  };
};

export function bodyCap({ config, grants, registry }: BodyCapOptions): MiddlewareHandler<AppEnv> {
  const small = capped(config.maxBodyBytes);
  const upload = capped(Math.max(config.maxBodyBytes, config.maxUploadBodyBytes));
  const uploaders = new Set(
    [...grants]
      .filter(([, granted]) => [...granted].some((name) => registry.get(name)?.def.takesUpload === true))
      .map(([agent]) => agent),
  );
  return (c, next) => (uploaders.has(c.get('agent')) ? upload : small)(c, next);
}
