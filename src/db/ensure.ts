// What a new user meets first when DATABASE_URL is wrong: one line saying what is wrong and how to fix it,
// instead of a driver's stack trace; and a database that does not exist yet is created when the URL's user may.
import { resolve } from 'node:path';
import type pg from 'pg';
import type { Env } from '../config.ts';
import { sha256Hex } from '../contract/hash.ts';

/** Which database an environment names (DATABASE_URL, else PGlite in DATA_DIR), without credentials. */
export interface DatabaseTarget {
  kind: 'postgres' | 'pglite';
  /** For people: "PostgreSQL database chambers on 127.0.0.1:5432" or "embedded PGlite in /abs/.data". */
  where: string;
  /** A short fingerprint (no secret in it): /healthz shows it, so `npm run token` can tell servers apart. */
  id: string;
  /** A database on this machine (the embedded one, or a loopback host). */
  local: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function databaseTarget(env: Env): DatabaseTarget {
  const url = env.DATABASE_URL;
  if (url !== undefined && url.trim() !== '') {
    const u = new URL(url);
    const name = decodeURIComponent(u.pathname.slice(1)) || decodeURIComponent(u.username) || 'postgres';
    const host = `${u.hostname}:${u.port || '5432'}`;
    return {
      kind: 'postgres',
      where: `PostgreSQL database ${name} on ${host}`,
      id: sha256Hex(`postgres:${host}/${name}`).slice(0, 16),
      local: LOOPBACK.has(u.hostname),
    };
  }
  const dir = resolve(env.DATA_DIR || '.data');
  return {
    kind: 'pglite',
    where: `embedded PGlite in ${dir}`,
    id: sha256Hex(`pglite:${dir}`).slice(0, 16),
    local: true,
  };
}

/** An error whose message is the whole story (no stack trace needed). */
export class DatabaseSetupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseSetupError';
  }
}

/** The PostgreSQL driver, loaded when a DATABASE_URL is checked (never on the embedded database's start). */
const loadPg = async () => (await import('pg')).default;

const codeOf = (e: unknown) => (e as { code?: unknown } | null)?.code;

/** One line for the ways a connection usually fails; null for anything else (shown as it is). */
export function explainConnectionError(e: unknown, url: string): string | null {
  const u = new URL(url);
  const host = `${u.hostname}:${u.port || '5432'}`;
  const user = decodeURIComponent(u.username) || '(the OS user)';
  if (e instanceof Error && /timeout/i.test(e.message) && codeOf(e) === undefined) {
    return `PostgreSQL on ${host} (DATABASE_URL) did not answer in time: check that it runs and that nothing between here and there drops the connection.`;
  }
  switch (codeOf(e)) {
    case 'ECONNREFUSED':
      return `Nothing accepts connections on ${host} (DATABASE_URL): start PostgreSQL there, or fix the host and port.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `The host ${u.hostname} of DATABASE_URL does not resolve: check its spelling.`;
    case '28P01':
    case '28000':
      return `PostgreSQL on ${host} refused user "${user}" (wrong password or no access): fix the user and password in DATABASE_URL.`;
    default:
      return null;
  }
}

/**
 * Makes sure the database of `url` exists: connects, and when PostgreSQL answers that the database does not
 * exist (3D000), creates it through the server's `postgres` database if the user may (superuser or
 * CREATEDB); otherwise throws a DatabaseSetupError with the command that fixes it. Returns whether it created.
 */
export async function ensurePostgresDatabase(url: string): Promise<boolean> {
  if (await postgresDatabaseExists(url)) return false;
  return createPostgresDatabase(url);
}

/**
 * Whether the database of `url` exists (PostgreSQL answers 3D000 when it does not); any other failure is a
 * DatabaseSetupError of one line when it is a usual one.
 */
export async function postgresDatabaseExists(url: string): Promise<boolean> {
  const { Client } = await loadPg();
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    return true;
  } catch (e) {
    if (codeOf(e) === '3D000') return false;
    const line = explainConnectionError(e, url);
    throw line === null ? e : new DatabaseSetupError(line, { cause: e });
  } finally {
    await client.end().catch(() => {});
  }
}

async function createPostgresDatabase(url: string): Promise<boolean> {
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.slice(1));
  const host = `${u.hostname}:${u.port || '5432'}`;
  const { Client } = await loadPg();
  const attempt = async (target: string) => {
    const client = new Client({ connectionString: target, connectionTimeoutMillis: 10_000 });
    client.on('error', () => {});
    await client.connect();
    return client;
  };
  let client: pg.Client;
  const admin = new URL(url);
  admin.pathname = '/postgres';
  try {
    client = await attempt(admin.toString());
  } catch (e) {
    throw new DatabaseSetupError(
      `The database "${name}" does not exist on ${host}, and its postgres database is not reachable to create it: run \`createdb -h ${u.hostname} -p ${u.port || '5432'} ${name}\` as its owner, or fix DATABASE_URL.`,
      { cause: e },
    );
  }
  try {
    const { rows } = await client.query<{ may: boolean }>(
      'select (rolsuper or rolcreatedb) as may from pg_roles where rolname = current_user',
    );
    if (rows[0]?.may !== true) {
      throw new DatabaseSetupError(
        `The database "${name}" does not exist on ${host}, and user "${decodeURIComponent(u.username)}" may not create databases: run \`createdb -h ${u.hostname} -p ${u.port || '5432'} -O ${decodeURIComponent(u.username) || '<user>'} ${name}\` as a superuser, or fix DATABASE_URL.`,
      );
    }
    const quoted = `"${name.replaceAll('"', '""')}"`;
    await client.query(`create database ${quoted}`).catch((e: unknown) => {
      // A concurrent creator won the race: the database exists, which is all we wanted.
      if (codeOf(e) !== '42P04') throw e;
    });
    return true;
  } finally {
    await client.end().catch(() => {});
  }
}
