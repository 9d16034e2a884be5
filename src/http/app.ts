// The HTTP app: the middleware (src/http/middleware) and routes (src/http/routes), mounted in order. Every
// refusal has the one body shape of its route family (src/http/errors.ts).
import { Hono } from 'hono';
import type { AgentRegistry } from '../agents/grants.ts';
import { TokenCache } from '../auth/token_cache.ts';
import type { AppConfig, AuthCacheMode } from '../config.ts';
import { mountConsole } from '../console/mount.ts';
import type { OwnerGateMode } from '../contract/gates.ts';
import type { RateLimiter } from '../contract/rate_limit.ts';
import type { Registry } from '../contract/registry.ts';
import type { Logger } from '../log.ts';
import { createMcpEndpoint } from '../mcp/binding.ts';
import { chambersSurface } from '../mcp/chambers_surface.ts';
import type { McpSurface } from '../mcp/surface.ts';
import { callStateFor } from './call_state.ts';
import type { AppEnv } from './context.ts';
import { errorHandler, routeNotFound } from './errors.ts';
import { bodyCap } from './middleware/body_cap.ts';
import { cors } from './middleware/cors.ts';
import { guard } from './middleware/guard.ts';
import { requestId } from './middleware/request_id.ts';
import { mountWorkerRoutes } from './routes/drain.ts';
import { mountHealth } from './routes/health.ts';
import { mountMcp } from './routes/mcp.ts';
import { mountTools } from './routes/tools.ts';
import type { Runtime } from './runtime.ts';

export interface AppOptions {
  registry: Registry;
  grants: ReadonlyMap<string, ReadonlySet<string>>;
  /** The agents, whose instructions MCP clients can fetch as prompts. */
  agents: AgentRegistry;
  /** How owner gates open (OWNER_GATE); the server instructions say how to ask. */
  ownerGate: OwnerGateMode;
  /** Whether the guard caches token → agent in this process (AUTH_CACHE, config.ts). */
  authCache: AuthCacheMode;
  /** MCP prompts, resources and completion; the agents' and the cases' by default (chambers_surface.ts). */
  surface?: McpSurface;
  config: AppConfig;
  /** The stores, background work, queue and clock of the runtime serving this app. */
  runtime: Runtime;
  log: Logger;
  rateLimiter?: RateLimiter;
  /** Check every result against its tool's output schema (the test suite; see callTool). */
  checkOutputs?: boolean;
  version: string;
  /** The database's fingerprint, shown by /healthz (Node: `npm run token` checks it is minting for this server). */
  databaseId?: string;
}

const gateInstructions: Record<OwnerGateMode, string> = {
  ack:
    'Owner-gated tools need the human owner’s explicit approval, passed as owner_ack: true with their reason; ' +
    'never assume it. ',
  approval:
    'Owner-gated tools need the human owner’s approval of that exact call: call with your reason; the refusal ' +
    '(owner_gate_required) gives an approval_id the owner decides in their console; once approved, repeat the ' +
    'same call with that approval_id (good once). ',
};

export const serverInstructions = (mode: OwnerGateMode): string =>
  'Chambers prepares decisions of an Israeli planning-and-building appeals committee. Every tool returns one ' +
  'envelope {ok, status: ok|empty|error, data, message}; "empty" is success with nothing to return; on error ' +
  'follow error.hint. Every change is idempotent: repeating a call returns the first result (created=false), ' +
  `never a duplicate. Lists page with limit (clamped to 1..200) and next_cursor. ${gateInstructions[mode]}` +
  'Tools that take a lease_id need a live session lease (lease_expired / lease_revoked: authorize a new session).';

export function createApp(options: AppOptions) {
  const { registry, config, log, runtime } = options;
  const checkOutputs = options.checkOutputs ?? false;
  const endpoint = createMcpEndpoint({
    registry,
    grants: options.grants,
    serverInfo: { name: 'chambers', version: options.version },
    instructions: serverInstructions(options.ownerGate),
    rateLimiter: options.rateLimiter,
    checkOutputs,
    log,
    surface: options.surface ?? chambersSurface({ registry, agents: options.agents, checkOutputs }),
  });
  const gate = guard({
    config,
    grants: options.grants,
    runtime,
    cache: options.authCache === 'process' ? new TokenCache() : null,
  });
  const cap = bodyCap(options);
  const callState = callStateFor({ grants: options.grants, config, runtime });

  const app = new Hono<AppEnv>();
  app.use('*', requestId(log));
  // Before the routes: a preflight (OPTIONS) is answered here, and answers to an allowed Origin name it.
  const edge = cors(config);
  app.use('/mcp', edge);
  app.use('/v1/*', edge);
  mountHealth(app, { runtime, version: options.version, databaseId: options.databaseId });
  mountMcp(app, { endpoint, guard: gate, bodyCap: cap, callState });
  mountTools(app, {
    registry,
    guard: gate,
    bodyCap: cap,
    callState,
    listFor: endpoint.listFor,
    rateLimiter: options.rateLimiter,
    checkOutputs,
  });
  mountConsole(app, { registry, runtime, checkOutputs, session: config.consoleSession });
  mountWorkerRoutes(app, { secret: config.workerSecret, runtime });
  app.notFound(routeNotFound);
  app.onError(errorHandler(log));
  return app;
}
