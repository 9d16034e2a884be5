import type { Context } from 'hono';
import { type AgentRegistry, checkAgentSet, checkGrants, formatAgentProblem } from './agents/grants.ts';
import { type AuthCacheMode, appConfigFromEnv, type Env, hostAllowlist } from './config.ts';
import type { AnyTool } from './contract/define.ts';
import type { OwnerGateMode } from './contract/gates.ts';
import { createRateLimiter } from './contract/rate_limit.ts';
import { buildRegistry, type Registry, type SchemaMemo } from './contract/registry.ts';
import { createApp } from './http/app.ts';
import { type RuntimeInput, runtimeFrom } from './http/runtime.ts';
import type { RequestServices } from './http/services.ts';
import { prefixedKv } from './kv/prefix.ts';
import { createLogger, type LogSink } from './log.ts';
import type { McpSurface } from './mcp/surface.ts';

export const VERSION = '0.1.0';

/** Tool grants per agent, checked against the registry (the grant check) before anything is served. */
export function grantsFromAgents(
  agents: AgentRegistry,
  registry: Registry,
): Map<string, ReadonlySet<string>> {
  const problems = [
    ...checkAgentSet(agents),
    ...checkGrants(
      agents,
      registry.tools.map((t) => t.def.name),
    ),
  ];
  if (problems.length > 0) {
    throw new Error(
      `The agent grants break the grant check (docs/contract.md "Grants and gates"):\n${problems.map((p) => `  ${formatAgentProblem(p)}`).join('\n')}`,
    );
  }
  // Tools only the owner calls (approval decisions) can never be an agent's: an agent that held
  // approval_review could approve its own requests.
  const ownerOnly = registry.tools.filter((t) => t.def.ownerOnly === true).map((t) => t.def.name);
  const forged = [...agents.values()].flatMap((a) =>
    a.tools.filter((t) => ownerOnly.includes(t)).map((t) => `agents/${a.name}.md grants ${t}`),
  );
  if (forged.length > 0) {
    throw new Error(
      `Owner-only tools are the console's and cannot be granted to an agent: ${forged.join('; ')}`,
    );
  }
  return new Map([...agents.values()].map((a) => [a.name, new Set(a.tools)]));
}

/**
 * What each runtime entry supplies: its runtime (stores, `waitUntil`, `kick`, `drain`, the job handlers of
 * entry/registries.ts, the clock: src/http/runtime.ts) and the rest below.
 */
export interface ChambersOptions extends RuntimeInput {
  agents: AgentRegistry;
  env: Env;
  /** The tools to serve (the entries pass entry/registries.ts; tests may serve fixture tools). */
  tools: readonly AnyTool[];
  /**
   * Test-only: a registry built by the caller, served instead of one built from `tools` (then ignored). The conformance
   * fixture profile needs it because the suite fixes tool names (`test_simple_text`) that C2 refuses.
   */
  registry?: Registry;
  /** The tools' JSON Schemas as an earlier start of the same build derived them (the Node entry's file). */
  schemas?: SchemaMemo;
  logSink?: LogSink;
  /** The database's fingerprint for /healthz (src/db/ensure.ts databaseTarget); Node passes it. */
  databaseId?: string;
  /** Test suite: check every tool result against the tool's output schema (a mismatch answers internal). */
  checkOutputs?: boolean;
  /**
   * How owner gates open when OWNER_GATE is unset: each runtime says (README "Owner gates"). Unset here,
   * 'approval': a gate that only the owner can open is the safe default.
   */
  defaultOwnerGate?: OwnerGateMode;
  /**
   * The guard's token cache when AUTH_CACHE is unset (docs/operations.md "Token cache"). Unset here, 'off':
   * every call looks its token up, the only mode in which a revocation by another process or isolate is
   * honoured on the next call.
   */
  defaultAuthCache?: AuthCacheMode;
  /**
   * Where the server listens (Node: HOST). On loopback, with ALLOWED_HOSTS unset, only the loopback Host names
   * are allowed (config.ts hostAllowlist); Workers have no such address and pass nothing.
   */
  listenHost?: string;
  /** Test-only: the MCP prompts and resources to serve instead of the agents' and the cases' (the conformance profile). */
  mcpSurface?: McpSurface;
}

/** The whole server as one Hono app; each runtime entry supplies its stores and agents. */
export function createChambers(options: ChambersOptions) {
  const parsed = appConfigFromEnv(options.env);
  const config = { ...parsed, allowedHosts: hostAllowlist(parsed.allowedHosts, options.listenHost) };
  const ownerGate = config.ownerGate ?? options.defaultOwnerGate ?? 'approval';
  const authCache = config.authCache ?? options.defaultAuthCache ?? 'off';
  const registry =
    options.registry ??
    buildRegistry(options.tools, {
      ownerGate,
      ...(options.schemas === undefined ? {} : { schemas: options.schemas }),
    });
  const grants = grantsFromAgents(options.agents, registry);
  const log = createLogger(config.logLevel, {}, options.logSink);
  // Every runtime's stores, with the environment's key-value prefix (KV_PREFIX) applied to every key.
  const runtime = runtimeFrom({
    ...options,
    services: async (c: Context): Promise<RequestServices> => {
      const s = await options.services(c);
      return { ...s, kv: prefixedKv(s.kv, config.kvPrefix) };
    },
  });
  const app = createApp({
    registry,
    grants,
    agents: options.agents,
    ownerGate,
    authCache,
    ...(options.mcpSurface === undefined ? {} : { surface: options.mcpSurface }),
    config,
    runtime,
    log,
    version: VERSION,
    rateLimiter: config.rateLimit === null ? undefined : createRateLimiter(config.rateLimit),
    databaseId: options.databaseId,
    checkOutputs: options.checkOutputs,
  });
  return { app, registry, grants, log, ownerGate, authCache };
}
