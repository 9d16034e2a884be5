// What the middleware sets on a request's context, for the routes after it.
import type { Context } from 'hono';
import type { Logger } from '../log.ts';
import type { RequestServices } from './services.ts';

export type Vars = {
  /** The caller's x-request-id when well-formed, else a fresh UUID (request_id middleware). */
  requestId: string;
  /** A logger whose lines carry the request id. */
  log: Logger;
  /** The authenticated agent (guard middleware). */
  agent: string;
  /** The request's stores (guard middleware), released when the response has been sent. */
  services: RequestServices;
};

export type AppEnv = { Variables: Vars };
export type AppContext = Context<AppEnv>;
