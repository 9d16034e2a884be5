/**
 * `npm run dev:worker`: the Workers build under `wrangler dev` (workerd, offline) against the local
 * PostgreSQL and Redis. It starts the harness bridges (Neon WebSocket proxy → PostgreSQL, Upstash REST
 * bridge → Redis), creates and migrates the dev database when needed, mints a token per agent and runs
 *
 *   wrangler dev --local --ip 127.0.0.1 --port 8787 --var DATABASE_URL:... --var NEON_WS_PROXY:... ...
 *
 * Settings: DEV_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/chambers_dev), PORT (8787),
 * KV_PREFIX (dev: the Worker's key prefix, and the bridge's), TEST_REDIS_URL (the Redis behind the bridge).
 * The agents' tokens are kept in DATA_DIR/dev-worker-tokens.json and reused on the next start. `startWorkerDev()` is also used by test/workers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AGENT_NAMES } from '../../src/agents/grants.ts';
import { agentForTokenHash, mintToken, tokenHash } from '../../src/auth/tokens.ts';
import { ensurePostgresDatabase } from '../../src/db/ensure.ts';
import { migrateDb } from '../../src/db/migrate.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import type { Db } from '../../src/db/types.ts';
import { offlineEnv, wranglerBin } from '../deploy/wrangler.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface WorkerDevOptions {
  /** postgres://... on a loopback host: the Worker reaches it through the Neon proxy. */
  databaseUrl: string;
  /** "127.0.0.1:PORT" of the Neon WebSocket proxy. */
  neonProxy: string;
  upstash: { url: string; token: string };
  /** 0 picks a free port. */
  port: number;
  /** Extra `--var` values (LOG_LEVEL, RATE_LIMIT_PER_SECOND...). */
  vars?: Record<string, string>;
  /** Serves `/__scheduled` so a test can fire the Cron Trigger handler (`wrangler dev --test-scheduled`). */
  testScheduled?: boolean;
  /** Keeps wrangler's state out of .wrangler/ (tests). */
  persistTo?: string;
  /** Each line wrangler prints (stdout and stderr); printed to stdout when omitted. */
  onOutput?: (line: string) => void;
}

export interface WorkerDev {
  url: string;
  child: ChildProcess;
  /** Stops wrangler and workerd (the whole process group). */
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `wrangler dev` and resolves once the Worker answers HTTP (or rejects if wrangler exits first).
 * A port picked free can be taken by another process before workerd binds it (parallel test files do
 * this); wrangler then exits with "Address already in use", and a fresh pick is tried, up to three times.
 */
export async function startWorkerDev(options: WorkerDevOptions): Promise<WorkerDev> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startWorkerDevOnce(options);
    } catch (err) {
      const raced = err instanceof Error && err.message.includes('Address already in use');
      // A fixed port asked for by the caller is not ours to change.
      if (!raced || attempt >= 3 || options.port !== 0) throw err;
    }
  }
}

async function startWorkerDevOnce(options: WorkerDevOptions): Promise<WorkerDev> {
  const port = options.port === 0 ? await freePort() : options.port;
  const vars: Record<string, string> = {
    DATABASE_URL: options.databaseUrl,
    NEON_WS_PROXY: options.neonProxy,
    UPSTASH_REDIS_REST_URL: options.upstash.url,
    UPSTASH_REDIS_REST_TOKEN: options.upstash.token,
    // wrangler.toml says "prod"; a local run keeps its keys apart unless told otherwise.
    KV_PREFIX: 'dev',
    ...options.vars,
  };
  // Both Workers in one workerd: the MCP Worker (first: it serves the port) and the extraction Worker its
  // EXTRACTION binding reaches.
  const args = [
    wranglerBin,
    'dev',
    '-c',
    'wrangler.toml',
    '-c',
    'wrangler.extraction.toml',
    '--local',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--inspector-port',
    String(await freePort()),
    '--show-interactive-dev-session=false',
    ...(options.persistTo === undefined ? [] : ['--persist-to', options.persistTo]),
    ...(options.testScheduled ? ['--test-scheduled'] : []),
    ...Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}:${v}`]),
  ];
  // Its own process group, so stop() ends workerd too (wrangler does not always reap it on SIGTERM).
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...offlineEnv },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('wrangler dev could not be started');
  // The last lines go into start-up errors, so a failure says why.
  const tail: string[] = [];
  const emit = options.onOutput ?? ((line: string) => console.log(line));
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        tail.push(line);
        if (tail.length > 30) tail.shift();
        emit(line);
      }
    });
  }
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve();
    }),
  );
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pid, sig);
    } catch {
      // The group is already gone.
    }
  };
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (exitCode === undefined) {
      signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    // workerd may outlive wrangler; make sure nothing of the group stays.
    signal('SIGKILL');
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  const failure = async (why: string) => {
    await stop();
    return new Error(`wrangler dev ${why}; its last output:\n${tail.join('\n')}`);
  };
  for (;;) {
    if (exitCode !== undefined) throw await failure(`exited with code ${exitCode} before it answered`);
    try {
      // Any HTTP answer (a 404 here) means workerd serves the Worker; this path never touches the stores.
      await fetch(`${url}/__ready`, { signal: AbortSignal.timeout(10_000) });
      break;
    } catch {
      if (Date.now() > deadline) throw await failure(`did not answer on ${url} within 90 s`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return { url, child, stop };
}

interface DevTokens {
  list: [string, string][];
  minted: number;
}

/**
 * One token per agent for this dev database, kept in a file (mode 600, under the git-ignored data directory)
 * so a restart reuses them instead of minting five more; a kept token that no longer works (revoked,
 * another database) is replaced.
 */
async function devTokens(db: Db, file: string, databaseUrl: string): Promise<DevTokens> {
  const kept = await readFile(file, 'utf8')
    .then((text) => JSON.parse(text) as { databaseUrl?: string; tokens?: Record<string, string> })
    .catch(() => ({}) as { databaseUrl?: string; tokens?: Record<string, string> });
  const previous = kept.databaseUrl === databaseUrl ? (kept.tokens ?? {}) : {};
  const list: [string, string][] = [];
  let minted = 0;
  for (const agent of AGENT_NAMES) {
    const old = previous[agent];
    if (old !== undefined && (await agentForTokenHash(db, tokenHash(old))) === agent) {
      list.push([agent, old]);
      continue;
    }
    list.push([agent, await mintToken(db, agent, 'npm run dev:worker')]);
    minted++;
  }
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify({ databaseUrl, tokens: Object.fromEntries(list) }, null, 2), {
    mode: 0o600,
  });
  return { list, minted };
}

async function main(): Promise<void> {
  const { startBridges } = await import('./bridges.ts');
  // Keys of this dev server live under their own prefix, so two checkouts can share one Redis.
  const kvPrefix = process.env.KV_PREFIX || 'dev';
  const databaseUrl = process.env.DEV_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/chambers_dev';
  const port = Number(process.env.PORT || 8787);
  const dbHost = new URL(databaseUrl).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(dbHost)) {
    throw new Error(
      `DEV_DATABASE_URL must point at a local PostgreSQL (the proxy only reaches loopback), got ${dbHost}`,
    );
  }

  await ensurePostgresDatabase(databaseUrl);
  const handle = openPostgres(databaseUrl, { max: 1 });
  const tokensFile = resolve(root, process.env.DATA_DIR || '.data', 'dev-worker-tokens.json');
  let tokens: DevTokens;
  try {
    await migrateDb(handle);
    tokens = await devTokens(handle.db, tokensFile, databaseUrl);
  } finally {
    await handle.close();
  }

  const bridges = await startBridges({ keyPrefix: `chambers-${kvPrefix}:` });
  let dev: WorkerDev;
  try {
    dev = await startWorkerDev({
      databaseUrl,
      neonProxy: bridges.neon.host,
      upstash: { url: bridges.upstash.url, token: bridges.upstash.token },
      port,
      vars: { KV_PREFIX: kvPrefix },
    });
  } catch (err) {
    await bridges.close();
    throw err;
  }
  const mcpUrl = `${dev.url}/mcp`;
  console.log(`\nChambers on workerd: ${mcpUrl}`);
  console.log(`  database ${new URL(databaseUrl).pathname.slice(1)} via Neon proxy ${bridges.neon.host}`);
  console.log(
    `  Upstash bridge ${bridges.upstash.url} → ${process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'}`,
  );
  console.log(`  key prefix ${kvPrefix} (KV_PREFIX)`);
  console.log(`  tokens (${tokens.minted} new; kept in ${tokensFile}, reused on the next start):`);
  for (const [agent, t] of tokens.list) console.log(`    ${agent.padEnd(10)} ${t}`);
  console.log(
    `  mint more: DATABASE_URL=${databaseUrl} npm run token -- <agent>   (list and revoke the same way)`,
  );
  const ceoToken = tokens.list.find(([a]) => a === 'ceo')?.[1] ?? '';
  console.log(
    JSON.stringify(
      {
        mcpServers: {
          'chambers-ceo': { type: 'http', url: mcpUrl, headers: { Authorization: `Bearer ${ceoToken}` } },
        },
      },
      null,
      2,
    ),
  );

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await dev.stop();
    await bridges.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  dev.child.once('exit', () => void stop());
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
