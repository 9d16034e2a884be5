import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { indexReadOptions, registerIndexReadDb } from './index_reads.ts';
import * as schema from './schema/index.ts';
import { DB_TIMEOUTS, type DbTimeouts, guardPoolClient, poolTimeouts } from './timeouts.ts';
import type { DbHandle } from './types.ts';

export interface PostgresOptions {
  /** Called with each SQL statement drizzle sends (counts round trips in benchmarks). */
  onQuery?: (sql: string) => void;
  /** Pool size (pg's default is 10). */
  max?: number;
  /** Shorter bounds than DB_TIMEOUTS (tests of a slow server). */
  timeouts?: Partial<DbTimeouts>;
}

/** A node-postgres handle; `pool` is exposed for the migrator and for tests. */
export interface PostgresHandle extends DbHandle {
  kind: 'postgres';
  pool: pg.Pool;
}

/** Connections of the index-read pool: searches are short, and each holds one only for its statement. */
const INDEX_READ_POOL_MAX = 4;

/** Opens a node-postgres pool (Node only: local development, self-hosting, tests). */
export function openPostgres(url: string, options: PostgresOptions = {}): PostgresHandle {
  let closed = false;
  const open = (extra: pg.PoolConfig) => {
    const pool = new pg.Pool({
      connectionString: url,
      ...poolTimeouts({ ...DB_TIMEOUTS, ...options.timeouts }),
      // A peer that vanished without a FIN is noticed by the kernel instead of never.
      keepAlive: true,
      ...extra,
    });
    pool.on('connect', guardPoolClient);
    // An idle client that dies (server restart, dropped database) is evicted by the pool and the next
    // query reconnects; without a listener the 'error' event would crash the process. After close() the
    // connections are on their way out anyway (pool.end() does not wait for the server side to go).
    pool.on('error', (err) => {
      if (!closed) console.warn(`[db] idle postgres connection failed: ${err.message}`);
    });
    return pool;
  };
  const pool = open(options.max === undefined ? {} : { max: options.max });
  // Its sessions start with the index-read settings, so a search is its statement alone (no transaction).
  const indexReadPool = open({
    max: Math.min(INDEX_READ_POOL_MAX, options.max ?? INDEX_READ_POOL_MAX),
    options: indexReadOptions,
  });
  const { onQuery } = options;
  const logger = onQuery ? { logger: { logQuery: (sql: string) => onQuery(sql) } } : {};
  const db = drizzle({ client: pool, schema, ...logger });
  registerIndexReadDb(db, drizzle({ client: indexReadPool, schema, ...logger }));
  return {
    db,
    kind: 'postgres',
    pool,
    close: async () => {
      if (closed) return;
      closed = true;
      await Promise.all([pool.end(), indexReadPool.end()]);
    },
  };
}
