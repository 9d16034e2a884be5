import { bigserial, boolean, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';

/**
 * One row per mutating tool call (C8), whatever its outcome. `agent` is the caller: an agent's name, or
 * `owner:<name>` for an owner acting in the console.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamptz('at').notNull().defaultNow(),
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
    /**
     * The approval request (owner_approvals) this row belongs to, in approval mode: the refused call that
     * created it, the owner's decision, and the call that used it all carry its id.
     */
    approvalId: uuid('approval_id'),
  },
  (t) => [
    index('audit_log_tool_at_idx').on(t.tool, t.at),
    index('audit_log_request_idx').on(t.requestId),
    index('audit_log_approval_idx').on(t.approvalId),
  ],
);
