import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Env } from '../config.ts';
import { createPostgresKv } from '../kv/postgres.ts';
import type { KvStore } from '../kv/types.ts';
import { type DatabaseTarget, databaseTarget, ensurePostgresDatabase } from './ensure.ts';
import { migrateDb } from './migrate.ts';
import { openPglite } from './pglite.ts';
import { compilePgliteWasm } from './pglite_wasm.ts';
import { KV_TIMEOUT_MS } from './timeouts.ts';
import type { DbHandle } from './types.ts';

export interface NodeStores {
  handle: DbHandle;
  kv: KvStore;
  /** Where the data lives, for the start-up banner. */
  describe: string;
  /** The database it opened (where, fingerprint). */
  database: DatabaseTarget;
}

/**
 * The stores a Node process uses: a Postgres URL when `DATABASE_URL` is set, else PGlite on disk in
 * `DATA_DIR` (default `.data/`); Upstash when its REST variables are set, else the Postgres KV table.
 * Migrations are applied before anything else touches the database. A PostgreSQL database that does not
 * exist is created when the URL's user may; any other connection problem is one DatabaseSetupError line.
 */
export async function openNodeStores(
  env: Env,
  options: {
    onQuery?: (sql: string) => void;
    onCreated?: (where: string) => void;
    /** Told once, at start, when the key-value store does not answer (the server still starts). */
    onKvDown?: (message: string) => void;
    /** Called as each step ends: `database` (opened), `migrations` (checked or applied); the start-up line. */
    onPhase?: (phase: 'database' | 'migrations') => void;
  } = {},
): Promise<NodeStores> {
  let handle: DbHandle;
  let where: string;
  const database = databaseTarget(env);
  if (env.DATABASE_URL !== undefined && env.DATABASE_URL !== '') {
    if (await ensurePostgresDatabase(env.DATABASE_URL)) options.onCreated?.(database.where);
    // The driver is loaded only here: the embedded database's start never compiles it.
    const { openPostgres } = await import('./postgres.ts');
    handle = openPostgres(env.DATABASE_URL, options.onQuery ? { onQuery: options.onQuery } : {});
    where = `PostgreSQL at ${new URL(env.DATABASE_URL).host}`;
  } else {
    const dataDir = resolve(env.DATA_DIR ?? '.data');
    await mkdir(dataDir, { recursive: true });
    handle = await openPglite({
      dataDir: `${dataDir}/pglite`,
      wasmModule: await compilePgliteWasm(),
      ...(options.onQuery ? { onQuery: options.onQuery } : {}),
    });
    where = `embedded PGlite in ${dataDir}`;
  }
  options.onPhase?.('database');
  await migrateDb(handle);
  options.onPhase?.('migrations');
  const upstashUrl = env.UPSTASH_REDIS_REST_URL;
  const upstashToken = env.UPSTASH_REDIS_REST_TOKEN;
  const kv =
    upstashUrl !== undefined && upstashUrl !== '' && upstashToken !== undefined
      ? (await import('../kv/upstash.ts')).createUpstashKv({ url: upstashUrl, token: upstashToken })
      : createPostgresKv(handle.db);
  if (kv.kind === 'upstash' && options.onKvDown !== undefined) {
    const problem = await kv.ping().then(
      () => null,
      (e: unknown) => explainKvError(e, upstashUrl as string),
    );
    if (problem !== null) options.onKvDown(problem);
  }
  return { handle, kv, describe: `${where}; key-value: ${kv.kind}`, database };
}

/**
 * One line naming the key-value host (never its token) and what failed, for the start-up report: the store
 * may come up later (calls that need it answer dependency_unavailable meanwhile and recover by themselves).
 */
export function explainKvError(e: unknown, url: string): string {
  let host = url;
  try {
    host = new URL(url).host;
  } catch {}
  // fetch's TypeError carries the socket's error as its cause (an AggregateError when several addresses failed).
  let code: unknown;
  for (let x: unknown = e, depth = 0; x && code === undefined && depth < 4; depth++) {
    const o = x as { code?: unknown; cause?: unknown; errors?: unknown[] };
    code = o.code ?? (o.errors?.[0] as { code?: unknown } | undefined)?.code;
    x = o.cause;
  }
  const message = e instanceof Error ? e.message : String(e);
  const why =
    (e as { name?: unknown } | null)?.name === 'TimeoutError'
      ? `no answer within ${KV_TIMEOUT_MS / 1000} s`
      : code === 'ECONNREFUSED'
        ? 'nothing accepts connections there'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'the host name does not resolve'
          : /unauthorized|WRONGPASS|invalid token/i.test(message)
            ? 'it refused UPSTASH_REDIS_REST_TOKEN'
            : message.split('\n')[0]?.slice(0, 200);
  return (
    `The key-value store at ${host} (UPSTASH_REDIS_REST_URL) is unreachable: ${why}. The server starts anyway; ` +
    'calls that write answer dependency_unavailable until it answers, then recover without a restart.'
  );
}
