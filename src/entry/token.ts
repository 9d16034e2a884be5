// `npm run token -- <agent>`: mints a token for one agent against the same database as `npm start`
// (DATA_DIR or DATABASE_URL) and prints only the token, so scripts can capture it.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AGENT_NAMES } from '../agents/grants.ts';
import { mintToken } from '../auth/tokens.ts';
import { openNodeStores } from './node-stores.ts';

const agent = process.argv[2];
if (agent === undefined || !(AGENT_NAMES as readonly string[]).includes(agent)) {
  console.error(`usage: npm run token -- <agent>   (agent: ${AGENT_NAMES.join(', ')})`);
  process.exit(2);
}
/** The running `npm start` on the same embedded data directory, if any (it owns the directory). */
async function runningServer(): Promise<{ adminUrl: string; adminSecret: string } | null> {
  if (process.env.DATABASE_URL) return null;
  try {
    const lock = JSON.parse(await readFile(resolve(process.env.DATA_DIR ?? '.data', 'server.json'), 'utf8'));
    process.kill(lock.pid, 0);
    return lock;
  } catch {
    return null;
  }
}

const server = await runningServer();
// A stale lock file (a crashed server whose pid was reused) answers nothing: then open the directory ourselves.
const res =
  server === null
    ? null
    : await fetch(server.adminUrl, {
        method: 'POST',
        headers: { Authorization: `Bearer ${server.adminSecret}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ agent }),
      }).catch(() => null);
if (res !== null) {
  const body = (await res.json()) as { token?: string; error?: string };
  if (!res.ok || body.token === undefined) {
    console.error(`The running server refused to mint a token: ${body.error ?? res.status}`);
    process.exit(1);
  }
  process.stdout.write(`${body.token}\n`);
} else {
  const stores = await openNodeStores(process.env);
  try {
    process.stdout.write(`${await mintToken(stores.handle.db, agent, 'npm run token')}\n`);
  } finally {
    await stores.handle.close();
  }
}
