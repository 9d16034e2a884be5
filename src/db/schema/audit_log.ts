import { bigserial, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** One row per mutating tool call (C8), whatever its outcome. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    agent: text('agent').notNull(),
    tool: text('tool').notNull(),
    idempotencyKey: text('idempotency_key'),
    /** ok | empty | error | replayed */
    outcome: text('outcome').notNull(),
    errorCode: text('error_code'),
    durationMs: integer('duration_ms').notNull(),
    requestId: text('request_id').notNull(),
    ownerAck: boolean('owner_ack'),
    ownerReason: text('owner_reason'),
  },
  (t) => [index('audit_log_tool_at_idx').on(t.tool, t.at), index('audit_log_request_idx').on(t.requestId)],
);
