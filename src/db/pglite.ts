import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import * as schema from './schema/index.ts';
import type { DbHandle } from './types.ts';

export interface PgliteOptions {
  /** A directory on disk; in memory when omitted. */
  dataDir?: string;
  /** A `dumpDataDir()` snapshot to start from (e.g. an already migrated database); see `dumpPglite`. */
  loadDataDir?: Blob;
  /** Called with each SQL statement drizzle sends (counts round trips in benchmarks). */
  onQuery?: (sql: string) => void;
}

/** A PGlite handle; `client` is exposed for snapshots (`dumpPglite`) and the migrator. */
export interface PgliteHandle extends DbHandle {
  kind: 'pglite';
  client: PGlite;
}

/** Opens an embedded PostgreSQL (PGlite) with pg_trgm loaded, in memory unless `dataDir` is given. */
export async function openPglite(options: PgliteOptions = {}): Promise<PgliteHandle> {
  // Options go in ONE object: given as a second argument after an undefined dataDir they are silently dropped.
  const client = new PGlite({
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    ...(options.loadDataDir === undefined ? {} : { loadDataDir: options.loadDataDir }),
    extensions: { pg_trgm },
  });
  await client.waitReady;
  const { onQuery } = options;
  const db = drizzle({
    client,
    schema,
    ...(onQuery ? { logger: { logQuery: (sql: string) => onQuery(sql) } } : {}),
  });
  return {
    db,
    kind: 'pglite',
    client,
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

/** Snapshots a PGlite database (uncompressed tarball) so `openPglite({ loadDataDir })` can clone it quickly. */
export async function dumpPglite(handle: PgliteHandle): Promise<Blob> {
  return handle.client.dumpDataDir('none');
}
