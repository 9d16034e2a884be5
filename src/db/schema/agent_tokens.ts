import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Bearer tokens, stored only as SHA-256 hex; a token belongs to exactly one agent. */
export const agentTokens = pgTable(
  'agent_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    agent: text('agent').notNull(),
    label: text('label'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('agent_tokens_agent_idx').on(t.agent)],
);
