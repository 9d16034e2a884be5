// `npm run token -- <agent>`: mints a token for one agent against the same database as `npm start`
// (DATA_DIR or DATABASE_URL) and prints only the token, so scripts can capture it.
import { AGENT_NAMES } from '../src/agents/grants.ts';
import { mintToken } from '../src/auth/tokens.ts';
import { acquireDataDirLock, findRunningServer } from '../src/db/data_dir_lock.ts';
import { openNodeStores } from '../src/db/node_stores.ts';

const agent = process.argv[2];
if (agent === undefined || !(AGENT_NAMES as readonly string[]).includes(agent)) {
  console.error(`usage: npm run token -- <agent>   (agent: ${AGENT_NAMES.join(', ')})`);
  process.exit(2);
}
const server = process.env.DATABASE_URL ? null : await findRunningServer(process.env.DATA_DIR ?? '.data');
const res =
  server === null
    ? null
    : await fetch(server.adminUrl, {
        method: 'POST',
        headers: { Authorization: `Bearer ${server.adminSecret}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ agent }),
      }).catch(() => null);
if (res !== null) {
  const body = (await res.json()) as { token?: string; message?: string };
  if (!res.ok || body.token === undefined) {
    console.error(`The running server refused to mint a token: ${body.message ?? res.status}`);
    process.exit(1);
  }
  process.stdout.write(`${body.token}\n`);
} else {
  // No server holds the embedded directory: hold it ourselves while minting, so none starts meanwhile.
  const lock = process.env.DATABASE_URL ? null : await acquireDataDirLock(process.env.DATA_DIR ?? '.data');
  const stores = await openNodeStores(process.env);
  try {
    process.stdout.write(`${await mintToken(stores.handle.db, agent, 'npm run token')}\n`);
  } finally {
    await stores.handle.close();
    await lock?.release();
  }
}
