// `npm run owner -- add <name> | link <name> | list`: owners are people, not agents. `link` prints a
// single-use console login link. Against the same database as `npm start` (DATA_DIR or DATABASE_URL); with
// the embedded database held by a running server, the server runs the command (as `npm run token` does).
import { acquireDataDirLock, findRunningServer } from '../src/db/data_dir_lock.ts';
import { openNodeStores } from '../src/db/node_stores.ts';
import { OWNER_USAGE, OwnerError, parseOwnerCommand, runOwnerCommand } from '../src/owner/commands.ts';

const command = parseOwnerCommand(process.argv.slice(2));
if (command === null) {
  console.error(OWNER_USAGE);
  process.exit(2);
}
const env = process.env;
// Where people reach the server: PUBLIC_URL, else where `npm start` listens by default.
const host = env.HOST ?? '127.0.0.1';
const fallbackBase = `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT ?? '8787'}`;
const server = env.DATABASE_URL ? null : await findRunningServer(env.DATA_DIR ?? '.data');
const res =
  server === null
    ? null
    : await fetch(new URL('/admin/owners', server.adminUrl), {
        method: 'POST',
        headers: { Authorization: `Bearer ${server.adminSecret}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(command),
      }).catch(() => null);
if (res !== null) {
  const body = (await res.json()) as { output?: string; message?: string };
  if (!res.ok || body.output === undefined) {
    console.error(body.message ?? `The running server refused (${res.status})`);
    process.exit(1);
  }
  console.log(body.output);
} else {
  const lock = env.DATABASE_URL ? null : await acquireDataDirLock(env.DATA_DIR ?? '.data');
  const stores = await openNodeStores(env);
  try {
    console.log(await runOwnerCommand(stores.handle.db, command, env.PUBLIC_URL ?? fallbackBase, new Date()));
  } catch (e) {
    if (!(e instanceof OwnerError)) throw e;
    console.error(e.message);
    process.exitCode = 1;
  } finally {
    await stores.handle.close();
    await lock?.release();
  }
}
