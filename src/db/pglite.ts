import { PGlite, type PGliteOptions, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import * as schema from './schema/index.ts';
import type { DbHandle } from './types.ts';

export interface PgliteOptions {
  /** A directory on disk; in memory when omitted. */
  dataDir?: string;
  /** A `dumpDataDir()` snapshot to start from (e.g. an already migrated database); see `dumpPglite`. */
  loadDataDir?: Blob;
  /** PGlite's engine already compiled (`compilePgliteWasm`), e.g. while the entry's modules loaded. */
  wasmModule?: WebAssembly.Module;
  /** Called with each SQL statement drizzle sends (counts round trips in benchmarks). */
  onQuery?: (sql: string) => void;
}

/** A PGlite handle; `client` is exposed for snapshots (`dumpPglite`) and the migrator. */
export interface PgliteHandle extends DbHandle {
  kind: 'pglite';
  client: PGlite;
}

/**
 * drizzle's PGlite driver runs transactions through `PGlite.transaction`, whose BEGIN/COMMIT never reach
 * drizzle's logger; reporting them here keeps `onQuery` counts comparable with the other drivers.
 */
class ReportingPGlite extends PGlite {
  readonly #onQuery: (sql: string) => void;

  constructor(options: PGliteOptions, onQuery: (sql: string) => void) {
    super(options);
    this.#onQuery = onQuery;
  }

  override async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    this.#onQuery('begin');
    try {
      const result = await super.transaction(callback);
      this.#onQuery('commit');
      return result;
    } catch (err) {
      this.#onQuery('rollback');
      throw err;
    }
  }
}

/**
 * PostgreSQL's buffer pool inside PGlite. The default 128 MB is zeroed page by page by the wasm's mmap at every
 * open, in baseline-compiled code (a single call is never swapped for optimised code): most of a second of each
 * start. The pages PGlite reads come from the OS's file cache anyway (one process, one backend), so a smaller
 * pool costs a copy per miss and saves ~120 MB of resident memory; shared memory is ~24 MB in all.
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

/** Opens an embedded PostgreSQL (PGlite) with pg_trgm loaded, in memory unless `dataDir` is given. */
export async function openPglite(options: PgliteOptions = {}): Promise<PgliteHandle> {
  // Options go in ONE object: given as a second argument after an undefined dataDir they are silently dropped.
  const { onQuery } = options;
  const pgliteOptions = {
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    ...(options.loadDataDir === undefined ? {} : { loadDataDir: options.loadDataDir }),
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
    ...(options.wasmModule === undefined ? {} : { pgliteWasmModule: options.wasmModule }),
  };
  const client = onQuery ? new ReportingPGlite(pgliteOptions, onQuery) : new PGlite(pgliteOptions);
  await client.waitReady;
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
