import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from './columns.ts';

/**
 * Bearer tokens, stored only as SHA-256 hex; a token belongs to exactly one agent. `id` names a token in
 * `npm run token -- list` and `revoke` (the hash never leaves the database). A token past `expires_at` or
 * with `revoked_at` set opens nothing; `last_used_at` is refreshed at most once a minute.
 */
export const agentTokens = pgTable(
  'agent_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    id: uuid('id').notNull().unique().defaultRandom(),
    agent: text('agent').notNull(),
    label: text('label'),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at'),
    lastUsedAt: timestamptz('last_used_at'),
    revokedAt: timestamptz('revoked_at'),
  },
  (t) => [index('agent_tokens_agent_idx').on(t.agent)],
);
