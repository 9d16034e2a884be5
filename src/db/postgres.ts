import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
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

/** Opens a node-postgres pool (Node only: local development, self-hosting, tests). */
export function openPostgres(url: string, options: PostgresOptions = {}): PostgresHandle {
  const pool = new pg.Pool({
    connectionString: url,
    ...(options.max === undefined ? {} : { max: options.max }),
    ...poolTimeouts({ ...DB_TIMEOUTS, ...options.timeouts }),
    // A peer that vanished without a FIN is noticed by the kernel instead of never.
    keepAlive: true,
  });
  pool.on('connect', guardPoolClient);
  let closed = false;
  // An idle client that dies (server restart, dropped database) is evicted by the pool and the next
  // query reconnects; without a listener the 'error' event would crash the process. After close() the
  // connections are on their way out anyway (pool.end() does not wait for the server side to go).
  pool.on('error', (err) => {
    if (!closed) console.warn(`[db] idle postgres connection failed: ${err.message}`);
  });
  const { onQuery } = options;
  const db = drizzle({
    client: pool,
    schema,
    ...(onQuery ? { logger: { logQuery: (sql: string) => onQuery(sql) } } : {}),
  });
  return {
    db,
    kind: 'postgres',
    pool,
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
