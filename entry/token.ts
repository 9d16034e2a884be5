// `npm run token`: mints, lists and revokes bearer tokens in the database `npm start` uses (DATABASE_URL, else
// PGlite in DATA_DIR). A mint prints only the token on stdout, so scripts can capture it; where it was stored
// goes to stderr. When a running server on this machine uses another database, it refuses instead of minting
// a token that server would not know (its /healthz names its database by a fingerprint).
import { AGENT_NAMES } from '../src/agents/grants.ts';
import {
  formatTokenTable,
  parseDuration,
  runTokenCommand,
  type TokenCommand,
  type TokenCommandResult,
  tokenCommandProblem,
} from '../src/auth/admin.ts';
import { acquireDataDirLock, findRunningServer } from '../src/db/data_dir_lock.ts';
import { DatabaseSetupError, databaseTarget } from '../src/db/ensure.ts';
import { openNodeStores } from '../src/db/node_stores.ts';

const USAGE = `usage:
  npm run token -- <agent> [--expires-in 30d|12h|45m] [--label <text>]   mint (prints only the token)
  npm run token -- list                                                    id, agent, created, last used, expiry
  npm run token -- revoke <id | agent>                                     one token, or all of an agent's
(agent: ${AGENT_NAMES.join(', ')}; the database: DATABASE_URL, else the embedded one in DATA_DIR)`;

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

function parseArgs(argv: readonly string[]): { command: TokenCommand; force: boolean } {
  const args = [...argv];
  const force = args.includes('--force');
  const rest = args.filter((a) => a !== '--force');
  const [first, ...more] = rest;
  if (first === undefined || first === '--help' || first === '-h') fail(USAGE, 2);
  if (first === 'list') {
    if (more.length > 0) fail(USAGE, 2);
    return { command: { action: 'list' }, force };
  }
  if (first === 'revoke') {
    if (more.length !== 1) fail(USAGE, 2);
    return { command: { action: 'revoke', target: more[0] as string }, force };
  }
  const command: TokenCommand & { action: 'mint' } = { action: 'mint', agent: first };
  for (let i = 0; i < more.length; i += 2) {
    const [flag, value] = [more[i], more[i + 1]];
    if (value === undefined) fail(USAGE, 2);
    if (flag === '--expires-in') {
      const ms = parseDuration(value);
      if (ms === null) fail(`--expires-in takes a number and d, h or m (30d, 12h, 45m), got "${value}"`, 2);
      command.expiresInMs = ms;
    } else if (flag === '--label') command.label = value;
    else fail(USAGE, 2);
  }
  return { command, force };
}

const { command, force } = parseArgs(process.argv.slice(2));
const problem = tokenCommandProblem(command);
if (problem !== null) fail(`${problem}\n\n${USAGE}`, 2);

const target = databaseTarget(process.env);
const dataDir = process.env.DATA_DIR || '.data';

/** The server answering on HOST:PORT (npm start's defaults), when it is a Chambers on another database. */
async function otherServerOnPort(): Promise<string | null> {
  const host = process.env.HOST || '127.0.0.1';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${process.env.PORT || '8787'}/healthz`;
  const res = await fetch(url, { signal: AbortSignal.timeout(1_500) }).catch(() => null);
  if (res === null) return null;
  const body = (await res.json().catch(() => null)) as { database?: unknown; version?: unknown } | null;
  if (typeof body?.database !== 'string' || body.database === target.id) return null;
  return url.replace(/\/healthz$/, '');
}

function report(result: TokenCommandResult, where: string): void {
  switch (result.action) {
    case 'mint':
      process.stdout.write(`${result.token}\n`);
      console.error(
        `Token ${result.id} for ${command.action === 'mint' ? command.agent : ''} stored in the ${where}` +
          (result.expires_at === null ? '.' : `; it expires ${result.expires_at}.`),
      );
      return;
    case 'list':
      console.log(
        result.tokens.length === 0 ? `No tokens in the ${where}.` : formatTokenTable(result.tokens),
      );
      return;
    case 'revoke':
      console.log(
        result.revoked.length === 0
          ? `Nothing to revoke in the ${where} (no live token matches).`
          : `Revoked ${result.revoked.length} token(s) in the ${where}: ${result.revoked.join(', ')}. ` +
              'Running servers refuse them within 60 s (their token cache).',
      );
      return;
  }
}

// The embedded database is held by a running `npm start`: hand it the command.
const server = target.kind === 'pglite' ? await findRunningServer(dataDir) : null;
if (server !== null) {
  const res = await fetch(server.adminUrl, {
    method: 'POST',
    headers: { Authorization: `Bearer ${server.adminSecret}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(
      command.action === 'mint'
        ? { action: 'mint', agent: command.agent, expires_in_ms: command.expiresInMs, label: command.label }
        : command,
    ),
  }).catch(() => null);
  if (res === null) fail(`The server holding ${target.where} did not answer at ${server.adminUrl}.`);
  const body = (await res.json()) as TokenCommandResult | { message?: string };
  if (!res.ok || !('action' in body)) {
    fail(`The running server refused: ${'message' in body ? body.message : res.status}`);
  }
  report(body, `${target.where} (through the running server)`);
  process.exit(0);
}

// A server on this machine's port that uses another database would never see what we write here.
if (target.local && !force) {
  const other = await otherServerOnPort();
  if (other !== null) {
    fail(
      `The Chambers server on ${other} uses another database than the ${target.where}.\n` +
        'Run this with the DATABASE_URL that server was started with (or add --force to use this one anyway).',
    );
  }
}

// No server holds the embedded directory: hold it ourselves meanwhile, so none starts while we write.
const lock = target.kind === 'pglite' ? await acquireDataDirLock(dataDir) : null;
try {
  const stores = await openNodeStores(process.env, {
    onCreated: (where) => console.error(`Created the ${where} (it did not exist).`),
  });
  try {
    report(await runTokenCommand(stores.handle.db, command), target.where);
  } finally {
    await stores.handle.close();
  }
} catch (e) {
  fail(e instanceof DatabaseSetupError ? e.message : String(e instanceof Error ? (e.stack ?? e) : e));
} finally {
  await lock?.release();
}
