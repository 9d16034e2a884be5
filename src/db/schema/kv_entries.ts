import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The Postgres key-value adapter's table (src/kv/postgres.ts). A row past `expires_at` counts as absent
 * everywhere; `purgeExpiredKv` removes such rows in bulk, so the index serves the purge and nothing else.
 */
export const kvEntries = pgTable(
  'kv_entries',
  {
    key: text('key').primaryKey(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('kv_entries_expires_at_idx').on(t.expiresAt)],
);
