import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema/index.ts';

export type Schema = typeof schema;

/** A drizzle database over any of our drivers (PGlite, node-postgres, Neon); tools see only this. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** A database handle plus how to close it; made per process on Node, per request on Workers. */
export interface DbHandle {
  db: Db;
  /** Which driver is behind it, for logs and health output. */
  kind: 'pglite' | 'postgres' | 'neon';
  close(): Promise<void>;
}
