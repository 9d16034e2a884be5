/**
 * Fresh, fully migrated databases that a test owns.
 *
 * - `createTestDb('pglite')`: an in-memory PGlite restored from a migrated snapshot (~0.25 s instead of
 *   ~3 s for a cold start plus migrations). The snapshot is cached in node_modules/.cache/chambers/,
 *   keyed by the migration files and the PGlite version. It has no template databases (nothing runs
 *   CREATE DATABASE on PGlite), which makes it a third smaller and each restore a quarter faster.
 * - `createTestDb('postgres')`: `CREATE DATABASE chambers_t_<unix seconds>_<random>` on the local server
 *   (see services.ts), copied from a migrated template (`chambers_template_<migrations hash>_<unix seconds>`,
 *   made once per set of migrations and kept, like the PGlite snapshot); `close()` drops it. Its `url` lets a
 *   test open other clients on it (Neon through the proxy, a second pool...). Databases left by crashed runs,
 *   and templates of other migrations, are dropped after 6 hours.
 * - `forEachDb(title, (getDb, kind) => { it(...) })`: registers the suite once per kind, the postgres
 *   one with `describeWithService` semantics (skipped with a warning locally, required in CI). By default
 *   one database per suite (created in beforeAll); `{ fresh: 'test' }` gives every test its own.
 *
 * Pass `onQuery` to count the SQL statements a test sends (migrations run before it is attached), and
 * `migrate: false` for an empty database (to test migrations themselves).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
import { defaultMigrationsFolder, migrateDb } from '../../src/db/migrate.ts';
import { dumpPglite, openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import type { DbHandle } from '../../src/db/types.ts';
import { describeWithService, services, serviceUrls } from './services.ts';

export type TestDbKind = 'pglite' | 'postgres';
export type TestDb = DbHandle & { url?: string };

export interface TestDbOptions {
  onQuery?: (sql: string) => void;
  /** false: an empty database (postgres: nothing but the server's template; pglite: not even pg_trgm). */
  migrate?: boolean;
}

const DB_PREFIX = 'chambers_t_';
const TEMPLATE_PREFIX = 'chambers_template_';
const CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/chambers/', import.meta.url));
const STALE_AFTER_SECONDS = 6 * 60 * 60;

let pgliteSnapshot: Promise<Blob> | undefined;

/** A hash of the migration files (names and contents), after `prefix` (what else the result depends on). */
async function migrationsHash(prefix: Uint8Array | string = ''): Promise<string> {
  const hash = createHash('sha256').update(prefix);
  const files = (await readdir(defaultMigrationsFolder, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const file of files)
    hash.update(file.slice(defaultMigrationsFolder.length)).update(await readFile(file));
  return hash.digest('hex').slice(0, 16);
}

/** Where the migrated snapshot is cached between runs, named by what it was built from. */
async function snapshotCachePath(): Promise<string> {
  // The package's exports hide package.json from resolution, so read it where npm installs it.
  const pglite = await readFile(
    new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url),
  );
  return join(CACHE_DIR, `pglite-migrated-${await migrationsHash(pglite)}-no-templates.tar`);
}

/**
 * A migrated PGlite snapshot: made once per process, and cached on disk (keyed by the migrations and the
 * PGlite version) so other test processes skip the ~3 s cold start.
 */
function migratedPgliteSnapshot(): Promise<Blob> {
  pgliteSnapshot ??= (async () => {
    const cachePath = await snapshotCachePath();
    const cached = await readFile(cachePath).catch(() => undefined);
    if (cached) return new Blob([cached]);
    const seed = await openPglite();
    try {
      await migrateDb(seed);
      // PGlite restores a snapshot file by file into memory, and template0 and template1 are a third of it.
      await seed.client.exec(
        'alter database template0 is_template false; alter database template1 is_template false',
      );
      await seed.client.exec('drop database template0');
      await seed.client.exec('drop database template1');
      const snapshot = await dumpPglite(seed);
      // Write then rename, so a concurrent test process never reads half a file.
      const partial = `${cachePath}.${process.pid}.partial`;
      await mkdir(CACHE_DIR, { recursive: true });
      await writeFile(partial, new Uint8Array(await snapshot.arrayBuffer()));
      await rename(partial, cachePath);
      return snapshot;
    } finally {
      await seed.close();
    }
  })();
  return pgliteSnapshot;
}

/** One connection to the test PostgreSQL server (its default database) for `fn`: DDL, existence checks. */
export async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serviceUrls.postgres, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

let staleSweep: Promise<void> | undefined;

/** Test database names carry their creation time in unix seconds: `<prefix><seconds>_…`. */
const unixSeconds = () => Math.floor(Date.now() / 1000);
const randomSuffix = () => randomBytes(6).toString('hex');
/** `name` as a LIKE pattern matching itself then anything (`_` is a LIKE wildcard). */
const likePrefix = (name: string) => `${name.replaceAll('_', '\\_')}%`;

/**
 * Drops test databases from runs that crashed before their `close()`, and templates of other migrations
 * (another checkout may still use one: only after 6 hours, and never while a copy is being made of it).
 */
async function dropStaleDatabases(currentTemplatePrefix: string): Promise<void> {
  await withAdmin(async (admin) => {
    const now = unixSeconds();
    const stale = async (prefix: string) => {
      const { rows } = await admin.query<{ datname: string }>(
        'select datname from pg_database where datname like $1',
        [likePrefix(prefix)],
      );
      return rows
        .map(({ datname }) => ({ datname, created: Number(datname.slice(prefix.length).split('_')[0]) }))
        .filter(({ created }) => Number.isFinite(created) && now - created > STALE_AFTER_SECONDS)
        .map(({ datname }) => datname);
    };
    for (const datname of await stale(DB_PREFIX)) {
      await admin.query(`drop database if exists "${datname}" with (force)`).catch(() => {});
    }
    const templates = (await stale(TEMPLATE_PREFIX)).filter(
      (name) => !name.startsWith(currentTemplatePrefix),
    );
    for (const datname of templates) {
      await admin.query(`drop database if exists "${datname}"`).catch(() => {});
    }
  });
}

/** The name prefix of the templates made from the current migrations. */
const templatePrefix = async () => `${TEMPLATE_PREFIX}${await migrationsHash()}_`;

/** The sweep, once per process, before the first test database. */
function sweepOnce(): Promise<void> {
  staleSweep ??= templatePrefix()
    .then(dropStaleDatabases)
    .catch(() => {});
  return staleSweep;
}

/** ALTER DATABASE … RENAME, retried while a backend that just disconnected is still exiting. */
async function renameDatabase(admin: pg.Client, from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`alter database "${from}" rename to "${to}"`);
      return;
    } catch (err) {
      // 55006 object_in_use: "database is being accessed by other users".
      if ((err as { code?: string }).code !== '55006' || attempt >= 50) throw err;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

let postgresTemplate: Promise<string> | undefined;

/**
 * The name of a migrated template database for the current migrations: found by its prefix
 * (`chambers_template_<hash>_`), or made once (migrated under a test database's name, so a crash leaves
 * nothing that the sweep would not drop, then renamed). Concurrent test processes may both make one; the
 * first rename wins and the loser drops its copy. Nothing ever connects to a template, so copies of it never
 * meet "source database is being accessed by other users".
 */
function migratedPostgresTemplate(): Promise<string> {
  postgresTemplate ??= (async () => {
    const prefix = await templatePrefix();
    await sweepOnce();
    const find = () =>
      withAdmin(async (admin) => {
        const { rows } = await admin.query<{ datname: string }>(
          'select datname from pg_database where datname like $1 order by datname limit 1',
          [likePrefix(prefix)],
        );
        return rows[0]?.datname;
      });
    const found = await find();
    if (found !== undefined) return found;
    const building = `${DB_PREFIX}${unixSeconds()}_${randomSuffix()}`;
    await withAdmin((admin) => admin.query(`create database "${building}"`));
    try {
      const migrator = openPostgres(urlOf(building), { max: 1 });
      try {
        await migrateDb(migrator);
      } finally {
        await migrator.close();
      }
      const name = `${prefix}${unixSeconds()}`;
      await withAdmin((admin) => renameDatabase(admin, building, name));
      return name;
    } catch (err) {
      await withAdmin((admin) => admin.query(`drop database if exists "${building}" with (force)`)).catch(
        () => {},
      );
      // Another process renamed its copy first (or at the same second): use that one.
      const winner = await find();
      if (winner !== undefined) return winner;
      throw err;
    }
  })();
  postgresTemplate.catch(() => {
    postgresTemplate = undefined;
  });
  return postgresTemplate;
}

/** The URL of database `name` on the local server. */
function urlOf(name: string): string {
  const url = new URL(serviceUrls.postgres);
  url.pathname = `/${name}`;
  return url.toString();
}

async function createPostgresTestDb({ migrate = true, ...options }: TestDbOptions): Promise<TestDb> {
  await sweepOnce();
  // Without migrations: a copy of the server's default template.
  const template = migrate ? await migratedPostgresTemplate() : undefined;
  // Names are generated here (digits, lower-case hex), so quoting them in DDL is safe.
  const name = `${DB_PREFIX}${unixSeconds()}_${randomSuffix()}`;
  await withAdmin((admin) =>
    admin.query(`create database "${name}"${template === undefined ? '' : ` template "${template}"`}`),
  );
  const url = urlOf(name);
  const dropDb = () => withAdmin((admin) => admin.query(`drop database if exists "${name}" with (force)`));
  try {
    const handle = openPostgres(url, { max: 10, ...options });
    return {
      ...handle,
      url,
      close: async () => {
        await handle.close();
        await dropDb();
      },
    };
  } catch (err) {
    await dropDb().catch(() => {});
    throw err;
  }
}

async function createPgliteTestDb({ migrate = true, ...options }: TestDbOptions): Promise<TestDb> {
  if (!migrate) return openPglite(options);
  return openPglite({ loadDataDir: await migratedPgliteSnapshot(), ...options });
}

/** A fresh, migrated, isolated database; the caller must `close()` it (for postgres that drops it). */
export async function createTestDb(kind: TestDbKind, options: TestDbOptions = {}): Promise<TestDb> {
  if (kind === 'pglite') return createPgliteTestDb(options);
  if (!services.postgres) throw new Error(`postgres is not reachable at ${serviceUrls.postgres}`);
  return createPostgresTestDb(options);
}

/** The database kinds available on this machine. */
export interface ForEachDbOptions extends TestDbOptions {
  /** 'suite' (default): one database shared by the suite's tests; 'test': a new one per test. */
  fresh?: 'suite' | 'test';
}

/**
 * Registers `fn` as a suite per database kind, titled `<title> [pglite]` and `<title> [postgres]`.
 * `getDb()` returns the current database inside hooks and tests (not while the suite is being collected).
 */
export function forEachDb(
  title: string,
  fn: (getDb: () => TestDb, kind: TestDbKind) => void,
  options: ForEachDbOptions = {},
): void {
  const { fresh = 'suite', ...dbOptions } = options;
  for (const kind of ['pglite', 'postgres'] as const) {
    const body = () => {
      let db: TestDb | undefined;
      const open = async () => {
        db = await createTestDb(kind, dbOptions);
      };
      const close = async () => {
        await db?.close();
        db = undefined;
      };
      if (fresh === 'test') {
        beforeEach(open);
        afterEach(close);
      } else {
        beforeAll(open);
        afterAll(close);
      }
      fn(() => {
        if (!db) throw new Error('getDb() is only available inside tests and hooks');
        return db;
      }, kind);
    };
    const suiteTitle = `${title} [${kind}]`;
    if (kind === 'pglite') describe(suiteTitle, body);
    else describeWithService('postgres', suiteTitle, body);
  }
}
