import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema/index.ts';

export type Schema = typeof schema;

/** A drizzle database over any of our drivers (PGlite, node-postgres, Neon); tools see only this. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** A database or a drizzle transaction on it (a transaction is a database for every query we make). */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

/** The rows of a raw `db.execute` result: every driver we use (pg, PGlite, Neon) returns `{ rows }`. */
export function rowsOf<R = Record<string, unknown>>(result: unknown): R[] {
  const rows = (result as { rows?: unknown } | null)?.rows;
  if (!Array.isArray(rows)) throw new Error('unexpected result shape from db.execute');
  return rows as R[];
}

/** A database handle plus how to close it; made per process on Node, per request on Workers. */
export interface DbHandle {
  db: Db;
  /** Which driver is behind it, for logs and health output. */
  kind: 'pglite' | 'postgres' | 'neon';
  close(): Promise<void>;
}
