import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';

/**
 * The Postgres key-value adapter's table (src/kv/postgres.ts). A row past `expires_at` counts as absent
 * everywhere; `purgeExpiredKv` removes such rows in bulk, so the index serves the purge and nothing else.
 */
export const kvEntries = pgTable(
  'kv_entries',
  {
    key: text('key').primaryKey(),
    value: text('value').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [index('kv_entries_expires_at_idx').on(t.expiresAt)],
);
