// The Node entry: `npm start` runs the server on the embedded default (PGlite in DATA_DIR) or on the
// stores named by the environment, and mints the first tokens on an empty database.
import { serve } from '@hono/node-server';
import { AGENT_NAMES } from '../src/agents/grants.ts';
import { loadAgentsFromDir } from '../src/agents/load_node.ts';
import { hasAnyToken, mintToken } from '../src/auth/tokens.ts';
import { constantTimeEqual, randomToken } from '../src/contract/hash.ts';
import { acquireDataDirLock } from '../src/db/data_dir_lock.ts';
import { openNodeStores } from '../src/db/node_stores.ts';
import { startDrainLoop } from '../src/jobs/loop.ts';
import { purgeExpiredKv } from '../src/kv/postgres.ts';
import { createChambers } from '../src/server.ts';
import { jobHandlers, tools } from './registries.ts';

const env = process.env;
const host = env.HOST ?? '127.0.0.1';
const port = Number(env.PORT ?? 8787);

// An embedded PGlite directory must have one process at a time: `npm run token` asks this server to mint
// instead of opening the directory itself, through a loopback route guarded by a secret in DATA_DIR.
const embedded = !env.DATABASE_URL;
const lock = embedded
  ? await acquireDataDirLock(env.DATA_DIR ?? '.data').catch((e: Error) => {
      console.error(e.message);
      process.exit(1);
    })
  : null;
const stores = await openNodeStores(env);
const agents = await loadAgentsFromDir('agents');
const pending = new Set<Promise<unknown>>();
// The in-process worker: kicked after enqueue, polling for retries that come due; stopped at shutdown.
let loop: ReturnType<typeof startDrainLoop> | undefined;
const { app, registry, log } = createChambers({
  kick: () => loop?.kick(),
  agents,
  tools,
  jobHandlers,
  env,
  services: async () => ({ db: stores.handle.db, kv: stores.kv }),
  waitUntil: (_c, work) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  },
});

loop = startDrainLoop({ db: stores.handle.db, handlers: jobHandlers, log });

// The Postgres key-value table keeps expired idempotency records until they are purged (Upstash expires
// its own keys); every 10 minutes, and never keeping the process alive.
const purge =
  stores.kv.kind === 'postgres'
    ? setInterval(() => {
        purgeExpiredKv(stores.handle.db).then(
          (n) => n > 0 && log.info('purged expired key-value entries', { count: n }),
          (e: unknown) => log.warn('key-value purge failed', { error: String(e) }),
        );
      }, 10 * 60_000).unref()
    : undefined;

const adminSecret = randomToken(32);
if (embedded) {
  app.post('/admin/tokens', async (c) => {
    const given = (c.req.header('authorization') ?? '').replace(/^Bearer\s+/i, '');
    if (!constantTimeEqual(given, adminSecret)) return c.json({ error: 'forbidden' }, 403);
    const body = (await c.req.json().catch(() => ({}))) as { agent?: unknown };
    const agent = typeof body.agent === 'string' ? body.agent : '';
    if (!(AGENT_NAMES as readonly string[]).includes(agent))
      return c.json({ error: `unknown agent "${agent}"` }, 400);
    return c.json({ token: await mintToken(stores.handle.db, agent, 'npm run token') });
  });
}

const mcpUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`;
const tokens: [string, string][] = [];
if (!(await hasAnyToken(stores.handle.db))) {
  for (const name of agents.keys())
    tokens.push([name, await mintToken(stores.handle.db, name, 'first start')]);
}

const server = serve({ fetch: app.fetch, hostname: host, port }, async () => {
  if (embedded) {
    const adminUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}/admin/tokens`;
    await lock?.publish(adminUrl, adminSecret);
  }
  console.log(`Chambers listening on ${mcpUrl} (${registry.tools.length} tools; ${stores.describe})`);
  if (tokens.length > 0) {
    console.log(
      '\nFirst start: one bearer token per agent (shown once; mint more with `npm run token -- <agent>`):',
    );
    for (const [name, token] of tokens) console.log(`  ${name.padEnd(10)} ${token}`);
    const [firstName, firstToken] = tokens.find(([name]) => name === 'ceo') ??
      tokens[0] ?? ['ceo', '<token>'];
    const config = {
      mcpServers: {
        [`chambers-${firstName}`]: {
          type: 'http',
          url: mcpUrl,
          headers: { Authorization: `Bearer ${firstToken}` },
        },
      },
    };
    console.log(`\nMCP client configuration (for the ${firstName} agent; swap the token for another agent):`);
    console.log(JSON.stringify(config, null, 2));
  }
});

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  log.info('shutting down', { signal });
  server.close();
  clearInterval(purge);
  await Promise.allSettled([...pending, loop?.stop()]);
  await lock?.release();
  await stores.handle.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
