import { and, eq, gt, sql } from '../db/orm.ts';
import { kvEntries } from '../db/schema/kv_entries.ts';
import { type Db, rowsOf } from '../db/types.ts';
import { ttlMillis } from './ttl.ts';
import type { KvClaim, KvStore } from './types.ts';

// Expiry is computed and compared with the database clock only, so app servers' clocks never matter.
const expiresIn = (ttlMs: number) => sql`now() + ${ttlMillis(ttlMs)}::float8 * interval '1 millisecond'`;
const live = gt(kvEntries.expiresAt, sql`now()`);

/**
 * The key-value store over the `kv_entries` table (the embedded default, and a fallback without Redis).
 * Each method is one SQL statement; rows past `expires_at` are treated as absent and purged lazily
 * (`purgeExpiredKv`), or overwritten in place by `set` and `claim`.
 */
export function createPostgresKv(db: Db): KvStore {
  return {
    kind: 'postgres',

    async get(key) {
      const rows = await db
        .select({ value: kvEntries.value })
        .from(kvEntries)
        .where(and(eq(kvEntries.key, key), live));
      return rows[0]?.value ?? null;
    },

    async set(key, value, ttlMs) {
      const expiresAt = expiresIn(ttlMs);
      await db
        .insert(kvEntries)
        .values({ key, value, expiresAt })
        .onConflictDoUpdate({ target: kvEntries.key, set: { value, expiresAt } });
    },

    async claim(key, value, ttlMs): Promise<KvClaim> {
      // The upsert only overwrites an expired row; a live row is locked and left alone, and the outer
      // select reports it. Atomic under concurrency: of N racing claims exactly one inserts or updates.
      // The outer select reads the statement's snapshot, so a holder that committed while this statement
      // waited on its row is not visible there: `current` is then null, which KvClaim allows.
      const result = await db.execute(sql`
        with claimed as (
          insert into kv_entries as k (key, value, expires_at)
          values (${key}, ${value}, ${expiresIn(ttlMs)})
          on conflict (key) do update set value = excluded.value, expires_at = excluded.expires_at
            where k.expires_at <= now()
          returning 1
        )
        select exists (select 1 from claimed) as claimed,
          (select value from kv_entries where key = ${key} and expires_at > now()) as current`);
      const row = rowsOf(result)[0];
      if (row?.claimed === true) return { claimed: true };
      return { claimed: false, current: typeof row?.current === 'string' ? row.current : null };
    },

    async compareAndSet(key, expected, value, ttlMs) {
      // READ COMMITTED re-checks the WHERE clause on the newest row version, so this is a true CAS.
      const rows = await db
        .update(kvEntries)
        .set({ value, expiresAt: expiresIn(ttlMs) })
        .where(and(eq(kvEntries.key, key), eq(kvEntries.value, expected), live))
        .returning({ key: kvEntries.key });
      return rows.length > 0;
    },

    async compareAndDelete(key, expected) {
      const rows = await db
        .delete(kvEntries)
        .where(and(eq(kvEntries.key, key), eq(kvEntries.value, expected), live))
        .returning({ key: kvEntries.key });
      return rows.length > 0;
    },

    async delete(key) {
      await db.delete(kvEntries).where(eq(kvEntries.key, key));
    },

    async deleteByPrefix(keyStart) {
      if (keyStart === '') throw new RangeError('deleteByPrefix needs a non-empty prefix');
      const result = await db.execute(sql`
        with gone as (delete from kv_entries where starts_with(key, ${keyStart}) returning 1)
        select count(*)::int as n from gone`);
      return Number(rowsOf(result)[0]?.n ?? 0);
    },

    async ping() {
      await db.execute(sql`select 1`);
    },
  };
}

/** Deletes expired entries (they already read as absent); returns how many. `npm start` runs it every 10 min. */
export async function purgeExpiredKv(db: Db): Promise<number> {
  // Counted in SQL so a large purge does not ship every deleted key back.
  const result = await db.execute(sql`
    with purged as (delete from kv_entries where expires_at <= now() returning 1)
    select count(*)::int as n from purged`);
  return Number(rowsOf(result)[0]?.n ?? 0);
}

/**
 * Deletes every live record whose value starts with `valuePrefix`, and says how many. For the embedded
 * database at start-up (one process holds it): the in-flight locks of a killed process are nobody's.
 */
export async function deleteKvValuesStartingWith(db: Db, valuePrefix: string): Promise<number> {
  const result = await db.execute(
    sql`delete from ${kvEntries} where starts_with(${kvEntries.value}, ${valuePrefix}) returning ${kvEntries.key}`,
  );
  return rowsOf(result).length;
}
