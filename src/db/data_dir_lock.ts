// An embedded PGlite directory is safe for one process at a time: a second one silently loses writes.
// `npm start` holds DATA_DIR/server.json while it runs; `npm run token` finds the running server there.
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { resolve } from 'node:path';

interface LockFile {
  pid: number;
  adminUrl?: string;
  adminSecret?: string;
}

const lockPath = (dataDir: string) => resolve(dataDir, 'server.json');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function readLock(dataDir: string): Promise<LockFile | null> {
  try {
    const lock = JSON.parse(await readFile(lockPath(dataDir), 'utf8')) as LockFile;
    return typeof lock.pid === 'number' && lock.pid !== process.pid && alive(lock.pid) ? lock : null;
  } catch {
    return null;
  }
}

async function writeLock(dataDir: string, lock: LockFile, exclusive: boolean): Promise<void> {
  const file = await open(lockPath(dataDir), exclusive ? 'wx' : 'w', 0o600);
  try {
    await file.writeFile(JSON.stringify(lock));
  } finally {
    await file.close();
  }
}

/** Takes DATA_DIR for this process before the database is opened; refuses when another server holds it. */
export async function acquireDataDirLock(dataDir: string) {
  await mkdir(dataDir, { recursive: true });
  const other = await readLock(dataDir);
  if (other !== null) {
    throw new Error(
      `Another Chambers server (pid ${other.pid}) is using ${resolve(dataDir)}. Stop it, or start with another DATA_DIR.`,
    );
  }
  await rm(lockPath(dataDir), { force: true }); // a stale lock of a process that is gone
  await writeLock(dataDir, { pid: process.pid }, true);
  return {
    /** Tells `npm run token` where to ask once the server listens. */
    publish: (adminUrl: string, adminSecret: string) =>
      writeLock(dataDir, { pid: process.pid, adminUrl, adminSecret }, false),
    release: () => rm(lockPath(dataDir), { force: true }),
  };
}

/** The live server holding DATA_DIR, waiting (up to `waitMs`) for one that is still starting to listen. */
export async function findRunningServer(
  dataDir: string,
  waitMs = 60_000,
): Promise<{ adminUrl: string; adminSecret: string } | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const lock = await readLock(dataDir);
    if (lock === null) return null;
    if (lock.adminUrl !== undefined && lock.adminSecret !== undefined) {
      return { adminUrl: lock.adminUrl, adminSecret: lock.adminSecret };
    }
    if (Date.now() > deadline)
      throw new Error(`The server (pid ${lock.pid}) holding ${dataDir} did not start listening`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
