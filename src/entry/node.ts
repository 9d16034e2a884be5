// The Node entry: `npm start` runs the server on the embedded default (PGlite in DATA_DIR) or on the
// stores named by the environment, and mints the first tokens on an empty database.
import { serve } from '@hono/node-server';
import { loadAgentsFromDir } from '../agents/load-node.ts';
import { hasAnyToken, mintToken } from '../auth/tokens.ts';
import { createChambers } from '../server.ts';
import { openNodeStores } from './node-stores.ts';

const env = process.env;
const host = env.HOST ?? '127.0.0.1';
const port = Number(env.PORT ?? 8787);

const stores = await openNodeStores(env);
const agents = await loadAgentsFromDir('agents');
const pending = new Set<Promise<unknown>>();
const { app, registry, log } = createChambers({
  agents,
  env,
  services: async () => ({ db: stores.handle.db, kv: stores.kv }),
  waitUntil: (_c, work) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  },
});

const mcpUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`;
const tokens: [string, string][] = [];
if (!(await hasAnyToken(stores.handle.db))) {
  for (const name of agents.keys()) tokens.push([name, await mintToken(stores.handle.db, name, 'first start')]);
}

const server = serve({ fetch: app.fetch, hostname: host, port }, () => {
  console.log(`Chambers listening on ${mcpUrl} (${registry.tools.length} tools; ${stores.describe})`);
  if (tokens.length > 0) {
    console.log('\nFirst start: one bearer token per agent (shown once; mint more with `npm run token -- <agent>`):');
    for (const [name, token] of tokens) console.log(`  ${name.padEnd(10)} ${token}`);
    const [firstName, firstToken] = tokens[0] ?? ['ceo', '<token>'];
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
  await Promise.allSettled([...pending]);
  await stores.handle.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
