// The Node entry: `npm start` runs the server on the embedded default (PGlite in DATA_DIR) or on the
// stores named by the environment, and mints the first tokens on an empty database.
import { serve } from '@hono/node-server';
import { loadAgentsFromDir } from '../src/agents/load_node.ts';
import { hasAnyToken, mintToken } from '../src/auth/tokens.ts';
import {
  ConfigError,
  nodeDefaultAuthCache,
  nodeDefaultOwnerGate,
  nodeEnvSchema,
  parseEnv,
} from '../src/config.ts';
import { randomToken } from '../src/contract/hash.ts';
import { IN_FLIGHT_PREFIX } from '../src/contract/idempotency.ts';
import { pgliteOf } from '../src/db/backup.ts';
import { acquireDataDirLock } from '../src/db/data_dir_lock.ts';
import { DatabaseSetupError } from '../src/db/ensure.ts';
import { openNodeStores } from '../src/db/node_stores.ts';
import { configuredOcrEngine } from '../src/documents/ocr/configured.ts';
import { createReaderPool } from '../src/documents/reader_pool.ts';
import { mountBackupAdmin } from '../src/http/routes/admin_backup.ts';
import { mountOwnerAdmin } from '../src/http/routes/admin_owners.ts';
import { mountTokenAdmin } from '../src/http/routes/admin_tokens.ts';
import { startDrainLoop } from '../src/jobs/loop.ts';
import { endOrphanedLeases } from '../src/jobs/queue.ts';
import { deleteKvValuesStartingWith, purgeExpiredKv } from '../src/kv/postgres.ts';
import { reindexStaleDocuments } from '../src/search/reindex.ts';
import { createChambers } from '../src/server.ts';
import { startupTiming } from '../src/startup_timing.ts';
import { makeJobHandlers, ocrEngine, tools } from './registries.ts';
import { buildSchemaMemo } from './schema_memo.ts';

// The first statement: the time so far was Node's bootstrap and the loading of the imports above.
const startup = startupTiming();
// Until the socket listens, a timer keeps the event loop alive. With nothing pending (while PGlite's engine is
// instantiated, say), Node blocks until every V8 background task is done, the wasm engine's optimising
// compiles among them: the main thread sat idle for ~250 ms of each start before its next file read.
const holdLoop = setInterval(() => {}, 60_000);
const env = process.env;
// Every setting is checked before anything opens: a bad one stops here, named, instead of deep in a driver.
const settings = (() => {
  try {
    return parseEnv(nodeEnvSchema, env);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(e.message);
    process.exit(1);
  }
})();
const { HOST: host, PORT: port } = settings;
// Scanned pages: Tesseract in this process unless OCR_ENGINE names the managed service (docs/operations.md).
const ocr = (() => {
  try {
    return configuredOcrEngine(env, { tesseract: () => ocrEngine });
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(e.message);
    process.exit(1);
  }
})();

// An embedded PGlite directory must have one process at a time: `npm run token` asks this server to mint
// instead of opening the directory itself, through a loopback route guarded by a secret in DATA_DIR.
const embedded = settings.DATABASE_URL === undefined;
const lock = embedded
  ? await acquireDataDirLock(settings.DATA_DIR).catch((e: Error) => {
      console.error(e.message);
      process.exit(1);
    })
  : null;
startup.mark('lock');
// A wrong DATABASE_URL is one line with its fix (src/db/ensure.ts), not a driver's stack trace.
const stores = await openNodeStores(
  {
    DATABASE_URL: settings.DATABASE_URL,
    DATA_DIR: settings.DATA_DIR,
    UPSTASH_REDIS_REST_URL: settings.UPSTASH_REDIS_REST_URL,
    UPSTASH_REDIS_REST_TOKEN: settings.UPSTASH_REDIS_REST_TOKEN,
  },
  {
    onCreated: (where) => console.log(`Created the ${where} (it did not exist).`),
    onKvDown: (message) => console.error(message),
    onPhase: (phase) => startup.mark(phase),
  },
).catch(async (e: unknown) => {
  console.error(e instanceof DatabaseSetupError ? e.message : e);
  await lock?.release();
  process.exit(1);
});
startup.mark('kv');
const agents = await loadAgentsFromDir('agents');
// Documents are parsed, and the extractors' rules run, in worker threads, off the thread that answers the
// agents (src/documents/reader_pool.ts).
const reader = createReaderPool();
const jobHandlers = makeJobHandlers({ reader, ocr: () => ocr, finder: reader });
const pending = new Set<Promise<unknown>>();
// The in-process worker: kicked after enqueue, polling for retries that come due; stopped at shutdown.
let loop: ReturnType<typeof startDrainLoop> | undefined;
// The tools' JSON Schemas as the previous start of this bundle derived them (none when unbundled).
const schemaMemo = buildSchemaMemo();
const { app, registry, log, ownerGate } = createChambers({
  ...(schemaMemo === undefined ? {} : { schemas: schemaMemo.memo }),
  // Owner gates: the agent's acknowledgement on the embedded database (a local trial), the owner's approval in
  // the console wherever a real database is used (README "Owner gates"); OWNER_GATE overrides either.
  defaultOwnerGate: nodeDefaultOwnerGate(settings),
  defaultAuthCache: nodeDefaultAuthCache(settings),
  // A job queued before the worker's timed start (below) starts it at once: only an idle start waits.
  kick: () => {
    startBackground();
    loop?.kick();
  },
  // Bound to loopback with ALLOWED_HOSTS unset, only the loopback Host names are answered.
  listenHost: host,
  agents,
  tools,
  jobHandlers,
  env,
  databaseId: stores.database.id,
  services: async () => ({ db: stores.handle.db, kv: stores.kv }),
  waitUntil: (_c, work) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  },
});

startup.mark('app');

// The embedded database is this process's alone (the DATA_DIR lock): a job still running was claimed by a
// process that was killed or crashed, and runs again now rather than when its lease would have lapsed.
if (embedded) {
  const orphaned = await endOrphanedLeases(stores.handle.db, new Date());
  if (orphaned > 0) log.warn('jobs of a process that stopped abruptly run again', { count: orphaned });
  // Likewise a call that was in flight then: its retry runs now instead of answering in_progress for 30 s.
  if (stores.kv.kind === 'postgres') {
    const calls = await deleteKvValuesStartingWith(stores.handle.db, IN_FLIGHT_PREFIX);
    if (calls > 0) log.warn('calls of a process that stopped abruptly can be retried', { count: calls });
  }
}
startup.mark('recovery');
const stopReindex = new AbortController();
let reindex: Promise<unknown> | undefined;
// A second after the server listens: the in-process worker (its first drain takes every job pending, the
// orphaned ones above among them) and the search reindex of documents indexed under an older normalisation.
// Their first queries (~60 ms) would otherwise run on the database's one connection ahead of the first
// requests (agents reconnecting after a restart); a job pending from before the start waits for that first drain,
// and a request that queues one starts them at once (the kick above).
const BACKGROUND_AFTER_MS = 1_000;
let backgroundStarted = false;
const startBackground = () => {
  if (stopping || backgroundStarted) return;
  backgroundStarted = true;
  loop = startDrainLoop({ db: stores.handle.db, handlers: jobHandlers, log });
  reindex = reindexStaleDocuments(stores.handle.db, { signal: stopReindex.signal }).then(
    (n) => n > 0 && log.info('documents indexed again for search', { count: n }),
    (e: unknown) => log.warn('search reindex failed', { error: String(e) }),
  );
};

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
// Login links point where people reach the server (PUBLIC_URL), else where it listens.
const publicBase = settings.PUBLIC_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
if (embedded) {
  mountTokenAdmin(app, { db: stores.handle.db, secret: adminSecret, now: () => new Date() });
  mountOwnerAdmin(app, { db: stores.handle.db, secret: adminSecret, publicBase, now: () => new Date() });
  const pglite = pgliteOf(stores.handle);
  // `npm run backup` while the server runs: a snapshot taken between transactions (src/db/backup.ts).
  if (pglite !== null) mountBackupAdmin(app, { client: pglite.client, secret: adminSecret });
}

const mcpUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`;
const tokens: [string, string][] = [];
if (!(await hasAnyToken(stores.handle.db))) {
  for (const name of agents.keys())
    tokens.push([name, await mintToken(stores.handle.db, name, 'first start')]);
}

startup.mark('tokens');

const server = serve({ fetch: app.fetch, hostname: host, port }, async () => {
  startup.mark('listen');
  clearInterval(holdLoop);
  // Where the time to the first answer went (docs/operations.md "Start-up"); first, as requests are served now.
  console.log(startup.line());
  setTimeout(startBackground, BACKGROUND_AFTER_MS);
  schemaMemo?.save();
  if (embedded) {
    const adminUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}/admin/tokens`;
    await lock?.publish(adminUrl, adminSecret);
  }
  console.log(
    `Chambers listening on ${mcpUrl} (${registry.tools.length} tools; ${stores.describe}; owner gates: ${ownerGate})`,
  );
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
  stopReindex.abort();
  await Promise.allSettled([...pending, loop?.stop(), reindex]);
  // The loop's stop aborted the reads in hand (they run again at the next start); no reader thread outlives it.
  await reader.close();
  await ocr.close();
  await lock?.release();
  await stores.handle.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
