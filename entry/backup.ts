// `npm run backup [-- --out <file>]`: a consistent snapshot of the embedded database (PGlite in DATA_DIR),
// taken through the running server when there is one (it holds the directory), else by opening the directory
// under its lock. Writes a gzipped tarball (default backups/chambers-<time>.tar.gz); `npm run restore` reads it.

import { snapshotPglite, writeSnapshot } from '../src/db/backup.ts';
import { acquireDataDirLock, findRunningServer } from '../src/db/data_dir_lock.ts';
import { openPglite } from '../src/db/pglite.ts';

const USAGE = 'usage: npm run backup [-- --out <file>]   (the embedded database in DATA_DIR, default .data)';

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) fail(USAGE, 2);
const outAt = args.indexOf('--out');
if ((outAt !== -1 && args[outAt + 1] === undefined) || args.length !== (outAt === -1 ? 0 : 2)) fail(USAGE, 2);
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const out = outAt === -1 ? `backups/chambers-${stamp}.tar.gz` : (args[outAt + 1] as string);
if (process.env.DATABASE_URL) {
  fail(
    'DATABASE_URL is set: back up a PostgreSQL database with its own tools (pg_dump); npm run backup is for the embedded one.',
  );
}
const dataDir = process.env.DATA_DIR || '.data';

const server = await findRunningServer(dataDir);
let blob: Blob;
let how: string;
if (server !== null) {
  const res = await fetch(new URL('/admin/backup', server.adminUrl), {
    headers: { Authorization: `Bearer ${server.adminSecret}` },
  }).catch((e: Error) =>
    fail(`The server holding ${dataDir} did not answer at ${server.adminUrl}: ${e.message}`),
  );
  if (!res.ok) fail(`The running server refused the backup (HTTP ${res.status}): ${await res.text()}`);
  blob = await res.blob();
  how = 'through the running server';
} else {
  const lock = await acquireDataDirLock(dataDir).catch((e: Error) => fail(e.message));
  try {
    const handle = await openPglite({ dataDir: `${dataDir}/pglite` });
    try {
      blob = await snapshotPglite(handle.client);
    } finally {
      await handle.close();
    }
  } finally {
    await lock.release();
  }
  how = 'no server was running';
}
const size = await writeSnapshot(blob, out);
console.log(`Backed up ${dataDir} to ${out} (${(size / 1024).toFixed(0)} KiB; ${how}).`);
