// The app under test: the real one (createChambers, PGlite in memory, the Postgres KV adapter on a second
// PGlite so its statements are counted as KV calls, not database round trips), plus one fixture tool,
// `bench_noop_get`, granted to ceo: a tools/call that measures auth, decoding and the envelope only.
import { readdir, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import * as z from 'zod';
import { tools as allTools, jobHandlers } from '../entry/registries.ts';
import { parseAgents } from '../src/agents/grants.ts';
import { mintToken } from '../src/auth/tokens.ts';
import { defineTool } from '../src/contract/define.ts';
import { migrateDb } from '../src/db/migrate.ts';
import { dumpPglite, openPglite } from '../src/db/pglite.ts';
import type { DbHandle } from '../src/db/types.ts';
import { createPostgresKv } from '../src/kv/postgres.ts';
import type { KvStore } from '../src/kv/types.ts';
import { createChambers } from '../src/server.ts';

export const NOOP = 'bench_noop_get';
/** The repository root (agents/ is read from it; the profile names our directories relative to it). */
export const root = fileURLToPath(new URL('../', import.meta.url));

const noop = defineTool({
  name: NOOP,
  title: 'Benchmark no-op',
  description:
    'Benchmark fixture: returns an empty object without touching any store, so a call measures the ' +
    'transport, auth, argument decoding and the envelope only.',
  input: {},
  output: z.object({}),
  mutates: false,
  async run() {
    return {};
  },
});

/** The real agents, with ceo also granted the fixture. */
async function benchAgents() {
  const files: Record<string, string> = {};
  for (const name of (await readdir(`${root}agents`)).filter((n) => n.endsWith('.md')).sort()) {
    let text = await readFile(`${root}agents/${name}`, 'utf8');
    if (name === 'ceo.md') {
      // The grant check (docs/contract.md "Grants and gates") holds for the fixture too: granted and
      // named in the instructions.
      text = text.replace(/^tools: \[/m, `tools: [${NOOP}, `);
      text += `\n\n- \`${NOOP}\` — benchmark fixture; does nothing.\n`;
    }
    files[`agents/${name}`] = text;
  }
  return parseAgents(files);
}

/** Counts what the app sends to the database (onQuery) and to the KV store, while `on`. */
export const counter = { on: false, db: [] as string[], kv: [] as string[] };

function countingKv(inner: KvStore): KvStore {
  const note = <T>(op: string, run: () => Promise<T>): Promise<T> => {
    if (counter.on) counter.kv.push(op);
    return run();
  };
  return {
    kind: inner.kind,
    get: (k) => note('get', () => inner.get(k)),
    set: (k, v, t) => note('set', () => inner.set(k, v, t)),
    claim: (k, v, t) => note('claim', () => inner.claim(k, v, t)),
    compareAndSet: (k, e, v, t) => note('compareAndSet', () => inner.compareAndSet(k, e, v, t)),
    compareAndDelete: (k, e) => note('compareAndDelete', () => inner.compareAndDelete(k, e)),
    delete: (k) => note('delete', () => inner.delete(k)),
    deleteByPrefix: (p) => note('deleteByPrefix', () => inner.deleteByPrefix(p)),
    ping: () => note('ping', () => inner.ping()),
  };
}

/** Serves `fetch` on a free loopback port. */
export async function listen(fetch: (req: Request) => Response | Promise<Response>) {
  const server = serve({ fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Opens the stores, builds the app, serves it and mints the ceo's token. By default the database is PGlite in
 * memory and the KV store a second PGlite; `database` (already migrated) serves both instead (bench/floor.ts
 * passes the local PostgreSQL pool).
 */
export async function startApp(database?: DbHandle, env: Record<string, string> = {}) {
  let db: DbHandle;
  let kvDb: DbHandle;
  if (database === undefined) {
    const pglite = await openPglite({
      onQuery: (sql) => {
        if (counter.on) counter.db.push(sql);
      },
    });
    await migrateDb(pglite);
    db = pglite;
    kvDb = await openPglite({ loadDataDir: await dumpPglite(pglite) });
  } else {
    db = database;
    kvDb = database;
  }
  const kv = countingKv(createPostgresKv(kvDb.db));
  const { app, registry, grants } = createChambers({
    agents: await benchAgents(),
    env: { RATE_LIMIT_PER_SECOND: '0', LOG_LEVEL: 'silent', ...env },
    services: async () => ({ db: db.db, kv }),
    tools: [...allTools, noop],
    jobHandlers,
    // The round trips of case_delete are measured with today's acknowledgement gate (no approval round).
    defaultOwnerGate: 'ack',
    // npm start's default on the embedded database (bench/floor.ts also measures AUTH_CACHE=off).
    defaultAuthCache: 'process',
  });
  const chambers = await listen(app.fetch);
  const token = await mintToken(db.db, 'ceo', 'bench');
  return {
    db,
    kvDb,
    kv,
    app,
    registry,
    grants,
    chambers,
    token,
    mcpUrl: `${chambers.url}/mcp`,
    toolCount: allTools.length + 1,
  };
}

export type BenchApp = Awaited<ReturnType<typeof startApp>>;
