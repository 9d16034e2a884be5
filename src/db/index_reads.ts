// Reads that must be planned on their indexes. The planner cannot see that reading a chunk's stored tsvector
// means detoasting it: for a word in more than ~10% of the chunks it would scan them all (seconds at 100k chunks)
// instead of the GIN index (tens of ms), or join a few hundred chunks by a scan of the table instead of their
// keys; and a parallel plan's workers cost more to start than the few thousand index hits they would share.
import { type SQL, sql } from './orm.ts';
import type { Db, DbOrTx } from './types.ts';

/** The settings an index read is planned under. */
export const INDEX_READ_SETTINGS = { enable_seqscan: 'off', max_parallel_workers_per_gather: '0' } as const;

/** INDEX_READ_SETTINGS for one transaction (one statement, one round trip). */
export const indexReadSettings: SQL = sql.raw(
  `select ${Object.entries(INDEX_READ_SETTINGS)
    .map(([name, value]) => `set_config('${name}', '${value}', true)`)
    .join(', ')}`,
);

/** INDEX_READ_SETTINGS as a connection's startup options (node-postgres's `options`). */
export const indexReadOptions = Object.entries(INDEX_READ_SETTINGS)
  .map(([name, value]) => `-c ${name}=${value}`)
  .join(' ');

/**
 * Databases whose every connection starts with INDEX_READ_SETTINGS, by the database they serve (src/db/postgres.ts
 * opens one beside each node-postgres pool): an index read there needs no transaction to set them.
 */
const indexReadDbs = new WeakMap<Db, Db>();

export function registerIndexReadDb(db: Db, indexReads: Db): void {
  indexReadDbs.set(db, indexReads);
}

/**
 * Runs `read` planned under INDEX_READ_SETTINGS: on the connections made for it where there are (node-postgres,
 * one round trip for the read), otherwise in a transaction that sets them first (PGlite in process, Neon).
 */
export async function withIndexReads<R>(db: DbOrTx, read: (db: DbOrTx) => Promise<R>): Promise<R> {
  const preset = indexReadDbs.get(db as Db);
  if (preset !== undefined) return read(preset);
  return db.transaction(async (tx) => {
    await tx.execute(indexReadSettings);
    return read(tx);
  });
}
