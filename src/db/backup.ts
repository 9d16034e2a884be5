// Backups of the embedded database (PGlite in DATA_DIR): a gzipped tarball of its data directory, taken
// while the server runs, and restored into an empty DATA_DIR. PostgreSQL deployments use pg_dump instead.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { openPglite, type PgliteHandle } from './pglite.ts';
import type { DbHandle } from './types.ts';

/** The PGlite handle behind a DbHandle, or null on a server database (PostgreSQL, Neon). */
export const pgliteOf = (handle: DbHandle): PgliteHandle | null =>
  handle.kind === 'pglite' && 'client' in handle ? (handle as PgliteHandle) : null;

// PGlite serialises single queries on one mutex and whole transactions on another; `dumpDataDir` takes only
// the first, so between two statements of an open transaction it would copy that transaction's half.
// Holding the transaction mutex too makes the copy fall between transactions. The method is PGlite's own
// (underscored, public in its typings), used here because no public call waits for transactions.
type Exclusive = { _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T> };

/**
 * A consistent snapshot (gzipped tar of the data directory) of a running PGlite: taken between
 * transactions, after a CHECKPOINT so that a restore starts without replaying the write-ahead log.
 */
export async function snapshotPglite(client: PGlite): Promise<Blob> {
  // CHECKPOINT first, outside the lock (exec takes the transaction mutex itself); the dump then waits for
  // the transaction in progress, if any, and copies the files with nothing running.
  await client.exec('CHECKPOINT');
  return (client as unknown as Exclusive)._runExclusiveTransaction(() => client.dumpDataDir('gzip'));
}

/** Where `npm start` keeps PGlite's files inside DATA_DIR (src/db/node_stores.ts). */
export const pgliteDir = (dataDir: string) => `${resolve(dataDir)}/pglite`;

export class RestoreError extends Error {}

/**
 * Restores a snapshot into DATA_DIR, which must be empty or absent (a restore never merges into or
 * overwrites a database); opens it once to check that PostgreSQL starts on it, and returns its table count.
 */
export async function restorePglite(file: string, dataDir: string): Promise<{ tables: number }> {
  const entries = await readdir(dataDir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [];
    throw e;
  });
  if (entries.length > 0) {
    throw new RestoreError(
      `${resolve(dataDir)} is not empty (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''}): ` +
        'restore into an empty or new DATA_DIR, then start the server on it.',
    );
  }
  const bytes = await readFile(file).catch((e: NodeJS.ErrnoException) => {
    throw new RestoreError(`Cannot read ${file}: ${e.code ?? e.message}`);
  });
  await mkdir(dataDir, { recursive: true });
  let handle: PgliteHandle;
  try {
    handle = await openPglite({ dataDir: pgliteDir(dataDir), loadDataDir: new Blob([bytes]) });
  } catch (e) {
    throw new RestoreError(`${file} is not a Chambers backup (${e instanceof Error ? e.message : e})`);
  }
  try {
    const r = await handle.client.query<{ n: number }>(
      "select count(*)::int as n from information_schema.tables where table_schema = 'public'",
    );
    return { tables: r.rows[0]?.n ?? 0 };
  } finally {
    await handle.close();
  }
}

/** Writes a snapshot to a file, creating its directory. */
export async function writeSnapshot(blob: Blob, file: string): Promise<number> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  await mkdir(resolve(file, '..'), { recursive: true });
  await writeFile(file, bytes, { mode: 0o600 });
  return bytes.byteLength;
}
