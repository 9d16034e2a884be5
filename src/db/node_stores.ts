import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Env } from '../config.ts';
import { createPostgresKv } from '../kv/postgres.ts';
import type { KvStore } from '../kv/types.ts';
import { createUpstashKv } from '../kv/upstash.ts';
import { type DatabaseTarget, databaseTarget, ensurePostgresDatabase } from './ensure.ts';
import { migrateDb } from './migrate.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';
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
  options: { onQuery?: (sql: string) => void; onCreated?: (where: string) => void } = {},
): Promise<NodeStores> {
  let handle: DbHandle;
  let where: string;
  const database = databaseTarget(env);
  if (env.DATABASE_URL !== undefined && env.DATABASE_URL !== '') {
    if (await ensurePostgresDatabase(env.DATABASE_URL)) options.onCreated?.(database.where);
    handle = openPostgres(env.DATABASE_URL, options.onQuery ? { onQuery: options.onQuery } : {});
    where = `PostgreSQL at ${new URL(env.DATABASE_URL).host}`;
  } else {
    const dataDir = resolve(env.DATA_DIR ?? '.data');
    await mkdir(dataDir, { recursive: true });
    handle = await openPglite({
      dataDir: `${dataDir}/pglite`,
      ...(options.onQuery ? { onQuery: options.onQuery } : {}),
    });
    where = `embedded PGlite in ${dataDir}`;
  }
  await migrateDb(handle);
  const upstashUrl = env.UPSTASH_REDIS_REST_URL;
  const upstashToken = env.UPSTASH_REDIS_REST_TOKEN;
  const kv =
    upstashUrl !== undefined && upstashUrl !== '' && upstashToken !== undefined
      ? createUpstashKv({ url: upstashUrl, token: upstashToken })
      : createPostgresKv(handle.db);
  return { handle, kv, describe: `${where}; key-value: ${kv.kind}`, database };
}
