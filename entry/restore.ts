// `npm run restore -- <file>`: restores a `npm run backup` snapshot into DATA_DIR (default .data), which must
// be empty or absent; then `npm start` serves it. Never merges into or overwrites a database.

import { RestoreError, restorePglite } from '../src/db/backup.ts';
import { findRunningServer } from '../src/db/data_dir_lock.ts';

const [file, ...rest] = process.argv.slice(2);
if (file === undefined || file.startsWith('-') || rest.length > 0) {
  console.error(
    'usage: npm run restore -- <backup file>   (into DATA_DIR, default .data, which must be empty)',
  );
  process.exit(2);
}
if (process.env.DATABASE_URL) {
  console.error(
    'DATABASE_URL is set: npm run restore is for the embedded database; unset it and set DATA_DIR.',
  );
  process.exit(1);
}
const dataDir = process.env.DATA_DIR || '.data';
if ((await findRunningServer(dataDir, 0)) !== null) {
  console.error(`A Chambers server is running on ${dataDir}: stop it, and restore into an empty DATA_DIR.`);
  process.exit(1);
}
try {
  const { tables } = await restorePglite(file, dataDir);
  console.log(
    `Restored ${file} into ${dataDir} (${tables} tables). Start the server with DATA_DIR=${dataDir}.`,
  );
} catch (e) {
  if (!(e instanceof RestoreError)) throw e;
  console.error(e.message);
  process.exit(1);
}
