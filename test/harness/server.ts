/**
 * A real Chambers app for tests over a fresh database (PGlite or the local PostgreSQL) and a KV store
 * (Postgres table or Upstash via the bridge), with one token per agent, and the official MCP client to talk
 * to it.
 *
 * By default no port is bound: the client's transport and `fetch` hand each request to the app's `fetch` in
 * process (the same Request/Response objects, SSE streams included). `socket: true` serves the app on a
 * random loopback port instead, for the suites whose subject is the transport or HTTP itself.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { jobHandlers, tools } from '../../entry/registries.ts';
import { startUpstashBridge, type UpstashBridge } from '../../scripts/dev/upstash_bridge.ts';
import { AGENT_NAMES, type AgentName, type AgentRegistry } from '../../src/agents/grants.ts';
import { loadAgentsFromDir } from '../../src/agents/load_node.ts';
import { mintToken } from '../../src/auth/tokens.ts';
import type { AnyTool } from '../../src/contract/define.ts';
import type { Envelope } from '../../src/contract/envelope.ts';
import type { DbHandle } from '../../src/db/types.ts';
import type { JobHandler } from '../../src/jobs/queue.ts';
import { createPostgresKv } from '../../src/kv/postgres.ts';
import type { KvStore } from '../../src/kv/types.ts';
import { createUpstashKv } from '../../src/kv/upstash.ts';
import { createChambers } from '../../src/server.ts';
import { createTestDb } from './databases.ts';
import { redisTestPrefix } from './services.ts';

export interface TestServerOptions {
  db?: 'pglite' | 'postgres';
  kv?: 'postgres' | 'upstash';
  /** With kv 'upstash': this Upstash endpoint (shared with another server) instead of a bridge of its own. */
  upstash?: { url: string; token: string };
  tools?: readonly AnyTool[];
  agents?: AgentRegistry;
  /**
   * Extra tools (usually fixtures passed in `tools`) granted per agent on top of agents/*.md; ignored
   * when `agents` is given. See `agentsWithGrants`.
   */
  grants?: Partial<Record<AgentName, readonly string[]>>;
  env?: Record<string, string>;
  /** Collects the server's log lines (silent by default). */
  logLines?: string[];
  /** Job handlers for drains (worker route, extraction_run); the production registry by default. */
  jobHandlers?: Readonly<Record<string, JobHandler>>;
  /** Called when a tool kicks the queue (the Node entry wakes its drain loop here). */
  kick?: () => void;
  /** The tools' clock (`ctx.now()`), for tests that move time (lease and mission expiry). */
  now?: () => Date;
  /** Sees every SQL statement the server sends, before it runs (a hook into a call in flight). */
  onQuery?: (sql: string) => void;
  /**
   * true: the Node HTTP server on a random loopback port, and every request over a real socket (suites
   * about the transport or HTTP: headers set on the wire, body caps, Host checks, SSE framing). By default
   * requests go to the app's `fetch` in process.
   */
  socket?: boolean;
  /**
   * Where createChambers is told the server listens (npm start's HOST): by default the loopback address a
   * `socket: true` server is bound to (so, with ALLOWED_HOSTS unset, only the loopback Host names pass).
   */
  listenHost?: string;
}

export interface TestServer {
  /**
   * The server's origin: a real loopback origin with `socket: true`; otherwise a placeholder
   * (http://chambers.invalid) that only `fetch` below reaches.
   */
  url: string;
  mcpUrl: string;
  /**
   * `fetch` against this server, in process or over the socket (`socket: true`). Takes a URL under `url` or a
   * path ('/healthz').
   */
  fetch(input: string | URL, init?: RequestInit): Promise<Response>;
  tokens: Record<AgentName, string>;
  db: DbHandle;
  kv: KvStore;
  /** The Upstash REST bridge when `kv` is 'upstash': closing it takes the KV store down. */
  bridge?: UpstashBridge;
  /** An MCP client connected as `agent` ('legacy' = 2025-era handshake, 'modern' = 2026-07-28). */
  connect(
    agent: AgentName,
    options?: { era?: 'legacy' | 'modern'; headers?: Record<string, string> },
  ): Promise<Client>;
  /** Calls a tool through the official client and returns the envelope from structuredContent. */
  call(agent: AgentName, tool: string, args: unknown): Promise<Envelope>;
  /** POST /v1/tools/:name with a JSON body. */
  callJson(agent: AgentName, tool: string, args: unknown): Promise<{ status: number; body: Envelope }>;
  close(): Promise<void>;
}

/** The origin of an in-process server: not resolvable, so a stray global `fetch(s.url)` fails loudly. */
const IN_PROCESS_ORIGIN = 'http://chambers.invalid';

/**
 * A `fetch` that hands each request to the app in process. Like a network fetch, aborting the request's
 * signal also ends a response body still being read (the client's transport aborts its SSE streams on
 * close and on cancellation).
 */
function inProcessFetch(app: { fetch(request: Request): Response | Promise<Response> }): typeof fetch {
  return async (input, init) => {
    const response = await app.fetch(new Request(input, init));
    // The caller's own signal: a Request's copy of it is only weakly tied to the original.
    const signal = init?.signal ?? undefined;
    if (response.body === null || signal === undefined) return response;
    return new Response(response.body.pipeThrough(new TransformStream(), { signal }), response);
  };
}

let shared: Promise<AgentRegistry> | undefined;
const realAgents = () => {
  shared ??= loadAgentsFromDir('agents');
  return shared;
};

/**
 * The real agents of agents/*.md with extra grants (fixture tools). Each extra tool is also named in
 * the agent's instructions, so the grant check (no grant without a mention) still holds.
 */
export async function agentsWithGrants(
  extra: Partial<Record<AgentName, readonly string[]>>,
): Promise<AgentRegistry> {
  const agents = new Map(await realAgents());
  for (const [name, tools] of Object.entries(extra) as [AgentName, readonly string[]][]) {
    const agent = agents.get(name);
    if (agent === undefined) throw new Error(`no agent ${name} in agents/`);
    const added = tools.filter((t) => !agent.tools.includes(t));
    agents.set(name, {
      ...agent,
      tools: [...agent.tools, ...added],
      instructions: `${agent.instructions}\n\nTest fixtures: ${added.map((t) => `\`${t}\``).join(', ')}.`,
    });
  }
  return agents;
}

/**
 * The real agents with some grants taken away (and their backticked mentions with them, so the grant check
 * still holds): for tests of what an agent without a tool sees.
 */
export async function agentsWithout(
  removed: Partial<Record<AgentName, readonly string[]>>,
): Promise<AgentRegistry> {
  const agents = new Map(await realAgents());
  for (const [name, tools] of Object.entries(removed) as [AgentName, readonly string[]][]) {
    const agent = agents.get(name);
    if (agent === undefined) throw new Error(`no agent ${name} in agents/`);
    let instructions = agent.instructions;
    for (const t of tools) instructions = instructions.replaceAll(`\`${t}\``, t);
    agents.set(name, { ...agent, tools: agent.tools.filter((t) => !tools.includes(t)), instructions });
  }
  return agents;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const db = await createTestDb(options.db ?? 'pglite', options.onQuery ? { onQuery: options.onQuery } : {});
  const cleanups: (() => Promise<void>)[] = [() => db.close()];
  let kv: KvStore;
  let bridge: UpstashBridge | undefined;
  // The bridge answers from this test process, whose event loop the app and PGlite share: on a busy machine a
  // request can wait past the production bound (KV_TIMEOUT_MS) without the store being slow. The fault suites
  // set their own short bounds.
  const kvTimeoutMs = 30_000;
  if (options.kv === 'upstash' && options.upstash !== undefined) {
    kv = createUpstashKv({ ...options.upstash, timeoutMs: kvTimeoutMs });
  } else if (options.kv === 'upstash') {
    // A key prefix per server: test files running in parallel share one Redis.
    const started = await startUpstashBridge({ keyPrefix: redisTestPrefix('server') });
    bridge = started;
    cleanups.push(async () => {
      await started.clear();
      await started.close();
    });
    kv = createUpstashKv({ url: started.url, token: started.token, timeoutMs: kvTimeoutMs });
  } else {
    kv = createPostgresKv(db.db);
  }
  const env = { LOG_LEVEL: options.logLines ? 'info' : 'silent', RATE_LIMIT_PER_SECOND: '0', ...options.env };
  const agents =
    options.agents ?? (options.grants ? await agentsWithGrants(options.grants) : await realAgents());
  const { app } = createChambers({
    agents,
    env,
    services: async () => ({ db: db.db, kv }),
    tools: options.tools ?? tools,
    jobHandlers: options.jobHandlers ?? jobHandlers,
    checkOutputs: true,
    // Today's gate unless a suite asks for approval mode (env OWNER_GATE: 'approval').
    defaultOwnerGate: 'ack',
    // npm start's default on the embedded database; a suite sets AUTH_CACHE: 'off' for the other mode.
    defaultAuthCache: 'process',
    kick: options.kick,
    ...(options.logLines ? { logSink: (line: string) => options.logLines?.push(line) } : {}),
    now: options.now,
    ...(options.socket || options.listenHost ? { listenHost: options.listenHost ?? '127.0.0.1' } : {}),
  });
  let url = IN_PROCESS_ORIGIN;
  // The transport's fetch: undefined means the global one, over the socket.
  let transportFetch: typeof fetch | undefined;
  if (options.socket) {
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const { port } = server.address() as AddressInfo;
    cleanups.unshift(
      () =>
        new Promise<void>((resolve) => {
          // serve() types its result as any Node server; ours is HTTP/1, which can drop idle keep-alives.
          (server as Server).closeAllConnections();
          server.close(() => resolve());
        }),
    );
    url = `http://127.0.0.1:${port}`;
  } else {
    transportFetch = inProcessFetch(app);
  }
  const serverFetch = (input: string | URL, init?: RequestInit) =>
    (transportFetch ?? fetch)(
      typeof input === 'string' && input.startsWith('/') ? `${url}${input}` : input,
      init,
    );
  const tokens = {} as Record<AgentName, string>;
  for (const agent of AGENT_NAMES) tokens[agent] = await mintToken(db.db, agent, 'test');
  const clients: Client[] = [];

  const connect: TestServer['connect'] = async (agent, opts = {}) => {
    const client = new Client(
      { name: 'chambers-test', version: '1.0.0' },
      opts.era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
    );
    const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${tokens[agent]}`, ...opts.headers } },
      ...(transportFetch === undefined ? {} : { fetch: transportFetch }),
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  };
  const byAgent = new Map<AgentName, Promise<Client>>();
  return {
    url,
    mcpUrl: `${url}/mcp`,
    fetch: serverFetch,
    tokens,
    db,
    kv,
    ...(bridge === undefined ? {} : { bridge }),
    connect,
    async call(agent, tool, args) {
      let client = byAgent.get(agent);
      if (client === undefined) {
        client = connect(agent);
        byAgent.set(agent, client);
      }
      const result = await (await client).callTool({
        name: tool,
        arguments: args as Record<string, unknown>,
      });
      return result.structuredContent as unknown as Envelope;
    },
    async callJson(agent, tool, args) {
      const res = await serverFetch(`/v1/tools/${tool}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${tokens[agent]}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(args),
      });
      return { status: res.status, body: (await res.json()) as Envelope };
    },
    async close() {
      await Promise.allSettled(clients.map((c) => c.close()));
      for (const cleanup of cleanups) await cleanup().catch(() => {});
    },
  };
}

/** Narrows an envelope to success, failing the test with the error otherwise. */
export function expectOk<T = Record<string, unknown>>(envelope: Envelope): T {
  if (!envelope.ok) throw new Error(`expected ok, got ${JSON.stringify(envelope.error)}`);
  return envelope.data as T;
}

export function errorCode(envelope: Envelope): string | undefined {
  return envelope.ok ? undefined : envelope.error.code;
}

/** A promise with its resolve function outside (Promise.withResolvers is past the project's ES2023 lib). */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
