/**
 * The conformance FIXTURE PROFILE: the production Hono app (auth, Origin/Host checks, body limit), the
 * production MCP binding (SDK v2 handler, stateless) and the production kernel (C3 decoding, envelope,
 * audit) serving a handful of test tools whose names the MCP conformance suite fixes.
 *
 * Two things differ from `npm start`, both confined to this file:
 * - The suite's tool names (`test_simple_text`) break C2 (verb last), so the tools are registered under
 *   C2-valid aliases through the real `buildRegistry` (every other rule still applies) and renamed back;
 *   the registry reaches the app through the test-only `registry` option of `createChambers`.
 * - The suite's client cannot send an Authorization header, so the profile serves the app through a
 *   fetch wrapper that adds the fixture agent's bearer token to requests that carry none, like an
 *   authenticating reverse proxy would. The token is real (minted in the database, checked by the app).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import * as z from 'zod';
import { parseAgents } from '../../src/agents/grants.ts';
import { mintToken } from '../../src/auth/tokens.ts';
import { type AnyTool, defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { ToolError } from '../../src/contract/errors.ts';
import { buildRegistry, type RegisteredTool, type Registry } from '../../src/contract/registry.ts';
import { migrateDb } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { createPostgresKv } from '../../src/kv/postgres.ts';
import { createChambers } from '../../src/server.ts';
import { conformanceSurface } from './surface.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const SIMPLE_TEXT = 'This is a simple text response for testing.';

/** tools-call-simple-text: any non-empty text block; ours is the envelope JSON (C1). */
const test_simple_text = defineTool({
  name: 'test_simple_text',
  description: 'Conformance fixture: returns a fixed text in the success envelope, with no arguments.',
  input: {},
  output: z.object({ text: z.string() }),
  mutates: false,
  async run() {
    return ok({ text: SIMPLE_TEXT }, SIMPLE_TEXT);
  },
});

/** tools-call-error: a tool that fails must give isError with a text block (C1: an error envelope). */
const test_error_handling = defineTool({
  name: 'test_error_handling',
  description: 'Conformance fixture: always fails with a typed tool error, so the result has isError: true.',
  input: {},
  output: z.object({}),
  mutates: false,
  async run() {
    throw new ToolError('invalid_state', 'This tool intentionally returns an error for testing');
  },
});

/** tools-call-with-progress: 0, 50, 100 of 100, ~50 ms apart, through the kernel's ctx.progress. */
const test_tool_with_progress = defineTool({
  name: 'test_tool_with_progress',
  description:
    'Conformance fixture: reports progress 0/100, 50/100 and 100/100 about 50 ms apart, then succeeds.',
  input: {},
  output: z.object({ steps: z.int() }),
  mutates: false,
  async run({ ctx }) {
    await ctx.progress({ progress: 0, total: 100 });
    await sleep(50);
    await ctx.progress({ progress: 50, total: 100 });
    await sleep(50);
    await ctx.progress({ progress: 100, total: 100, message: 'done' });
    return ok({ steps: 3 }, 'Progress test completed');
  },
});

export const fixtureTools: readonly AnyTool[] = [
  test_simple_text,
  test_error_handling,
  test_tool_with_progress,
];

/** The C2-valid alias a fixture tool is registered under (family `fixture`, verb `run`). */
const aliasOf = (name: string) => `fixture_${name}_run`;

/**
 * The real registry over the fixture tools: built by `buildRegistry` under C2-valid aliases (so every
 * other contract rule is checked and the listing, decode plan and annotations are the kernel's own),
 * then renamed to the names the suite calls.
 */
export function buildFixtureRegistry(defs: readonly AnyTool[]): Registry {
  const byAlias = new Map(defs.map((d) => [aliasOf(d.name), d]));
  const aliased = buildRegistry(defs.map((d) => ({ ...d, name: aliasOf(d.name) })));
  const tools = aliased.tools.map((t): RegisteredTool => {
    const def = byAlias.get(t.def.name);
    if (def === undefined) throw new Error(`fixture alias ${t.def.name} has no tool`);
    return { def, plan: t.plan, gate: t.gate, listing: { ...t.listing, name: def.name } };
  });
  tools.sort((a, b) => (a.def.name < b.def.name ? -1 : a.def.name > b.def.name ? 1 : 0));
  const byName = new Map(tools.map((t) => [t.def.name, t]));
  return { tools, get: (name) => byName.get(name) };
}

/** Agents for the profile: the five the design names (C7 requires them); ceo is granted every fixture tool. */
export function fixtureAgents(toolNames: readonly string[]) {
  const file = (name: string, tools: readonly string[], body: string) =>
    `---\nname: ${name}\ndescription: Conformance fixture agent ${name}\ntools: [${tools.join(', ')}]\n---\n\n${body}\n`;
  const mentions = toolNames.map((t) => `\`${t}\``).join(', ');
  return parseAgents({
    'ceo.md': file('ceo', toolNames, `Runs the MCP conformance scenarios with ${mentions}.`),
    ...Object.fromEntries(
      ['analyst', 'researcher', 'writer', 'qa'].map((n) => [`${n}.md`, file(n, [], 'Has no fixture tools.')]),
    ),
  });
}

export interface FixtureProfile {
  /** The MCP endpoint the suite is pointed at. */
  mcpUrl: string;
  /** The bearer token the wrapper adds (the fixture ceo's). */
  token: string;
  /** The production app's own fetch, without the token wrapper (to check that auth is really on). */
  appFetch(request: Request): Promise<Response>;
  close(): Promise<void>;
}

/** Starts the fixture profile on a random loopback port over an in-memory PGlite. */
export async function startFixtureProfile(
  options: { logSink?: (line: string) => void } = {},
): Promise<FixtureProfile> {
  const registry = buildFixtureRegistry(fixtureTools);
  const handle = await openPglite();
  await migrateDb(handle);
  const kv = createPostgresKv(handle.db);
  const { app } = createChambers({
    agents: fixtureAgents(registry.tools.map((t) => t.def.name)),
    env: { LOG_LEVEL: 'warn' },
    services: async () => ({ db: handle.db, kv }),
    tools: [],
    jobHandlers: {},
    registry,
    mcpSurface: conformanceSurface,
    ...(options.logSink ? { logSink: options.logSink } : {}),
  });
  const token = await mintToken(handle.db, 'ceo', 'conformance fixture');
  const withToken = (request: Request): Request => {
    if (request.headers.has('authorization')) return request;
    const headers = new Headers(request.headers);
    headers.set('authorization', `Bearer ${token}`);
    return new Request(request, { headers });
  };
  const server = serve({
    fetch: (request: Request) => app.fetch(withToken(request)),
    hostname: '127.0.0.1',
    port: 0,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    mcpUrl: `http://127.0.0.1:${port}/mcp`,
    token,
    appFetch: async (request) => app.fetch(request),
    async close() {
      await new Promise<void>((resolve) => {
        // serve() gives an http.Server here (no TLS, no HTTP/2 options).
        (server as Server).closeAllConnections();
        server.close(() => resolve());
      });
      await handle.close();
    },
  };
}
