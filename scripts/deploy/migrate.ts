/**
 * `npm run db:migrate`: applies drizzle/ to DATABASE_URL, else to the embedded PGlite in DATA_DIR (refused
 * while `npm start` holds it: the server migrated it when it started). A database that does not exist is
 * created when the URL's user may; a wrong URL is one line saying what to fix.
 *
 *   npm run db:migrate              apply what is pending, listing it
 *   npm run db:migrate -- --plan    list what is pending, change nothing (a missing database: all of it)
 *
 * `migrateTarget()` is what `npm run deploy` and `npm run preview` use.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { acquireDataDirLock } from '../../src/db/data_dir_lock.ts';
import {
  DatabaseSetupError,
  databaseTarget,
  ensurePostgresDatabase,
  postgresDatabaseExists,
} from '../../src/db/ensure.ts';
import { defaultMigrationsFolder, migrateDb } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import type { DbHandle } from '../../src/db/types.ts';
import { rowsOf } from '../../src/db/types.ts';
import { reindexStaleDocuments } from '../../src/search/reindex.ts';

interface JournalEntry {
  idx: number;
  when: number;
  tag: string;
}

/** The migrations in drizzle/, in order (drizzle-kit's journal). */
export async function migrationList(folder = defaultMigrationsFolder): Promise<JournalEntry[]> {
  const journal = JSON.parse(await readFile(join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: JournalEntry[];
  };
  return journal.entries;
}

/**
 * The migrations not applied yet. drizzle's migrator records each applied one in
 * drizzle.__drizzle_migrations with the journal's `when`, and applies every entry newer than the last.
 */
export async function pendingMigrations(handle: DbHandle): Promise<JournalEntry[]> {
  const all = await migrationList();
  const exists = rowsOf<{ t: string | null }>(
    await handle.db.execute(`select to_regclass('drizzle.__drizzle_migrations')::text as t`),
  )[0];
  if (exists?.t === null || exists?.t === undefined) return all;
  const last = rowsOf<{ last: string | number | null }>(
    await handle.db.execute('select max(created_at) as last from drizzle.__drizzle_migrations'),
  )[0]?.last;
  const lastWhen = last === null || last === undefined ? -1 : Number(last);
  return all.filter((m) => m.when > lastWhen);
}

export interface MigrateResult {
  where: string;
  applied: string[];
  created: boolean;
  /** Documents whose search index was written again under the current version (src/search/reindex.ts). */
  reindexed?: number;
  /** With `plan`: the database does not exist yet (a real run creates it, then applies everything). */
  missing?: boolean;
}

/**
 * Opens the database `env` names, applies (or with `plan`, only lists) the pending migrations, closes it.
 * Throws DatabaseSetupError (one line) when the database cannot be reached or created.
 */
export async function migrateTarget(
  env: Readonly<Record<string, string | undefined>>,
  options: { plan?: boolean } = {},
): Promise<MigrateResult> {
  const target = databaseTarget(env);
  let created = false;
  let handle: DbHandle;
  let release = async () => {};
  if (target.kind === 'postgres') {
    const url = env.DATABASE_URL as string;
    if (options.plan && !(await postgresDatabaseExists(url))) {
      return {
        where: target.where,
        applied: (await migrationList()).map((m) => m.tag),
        created,
        missing: true,
      };
    }
    created = options.plan ? false : await ensurePostgresDatabase(url);
    handle = openPostgres(url, { max: 1 });
  } else {
    const dataDir = resolve(env.DATA_DIR || '.data');
    const lock = await acquireDataDirLock(dataDir).catch((e: Error) => {
      throw new DatabaseSetupError(`${e.message} (npm start applies the migrations when it starts).`);
    });
    release = () => lock.release();
    handle = await openPglite({ dataDir: `${dataDir}/pglite` });
  }
  try {
    const pending = (await pendingMigrations(handle)).map((m) => m.tag);
    if (!options.plan && pending.length > 0) await migrateDb(handle);
    const reindexed = options.plan ? 0 : await reindexStaleDocuments(handle.db);
    return { where: target.where, applied: pending, created, reindexed };
  } finally {
    await handle.close();
    await release();
  }
}

async function main(): Promise<void> {
  const plan = process.argv.includes('--plan');
  const result = await migrateTarget(process.env, { plan });
  if (result.created) console.log(`Created the ${result.where} (it did not exist).`);
  if (result.missing) console.log(`The ${result.where} does not exist yet: db:migrate would create it.`);
  if (result.applied.length === 0) {
    console.log(`The ${result.where} is up to date (${(await migrationList()).length} migrations).`);
  } else {
    const verb = plan ? 'Would apply' : 'Applied';
    console.log(`${verb} ${result.applied.length} migration(s) to the ${result.where}:`);
    for (const tag of result.applied) console.log(`  ${tag}`);
  }
  if ((result.reindexed ?? 0) > 0) console.log(`Indexed ${result.reindexed} document(s) again for search.`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e: unknown) => {
    console.error(e instanceof DatabaseSetupError ? e.message : e);
    process.exit(1);
  });
}
