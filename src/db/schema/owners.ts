// The owner principal (docs/contract.md "Grants and gates"): people who govern the agents, never agents. They
// enrol in the console with a single-use link (setting a password), then sign in with the password, keep a
// server-side session, and decide approval requests that owner-gated calls create in approval mode. Secrets
// (link tokens, session ids) are stored as SHA-256 only, passwords as PBKDF2 (src/auth/passwords.ts).

import { index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from '../orm.ts';
import { createdAt, timestamptz } from './columns.ts';

export const owners = pgTable(
  'owners',
  {
    id: uuid('id').primaryKey(),
    /** How the owner is named in the console and the audit log (`owner:<name>`). */
    name: text('name').notNull(),
    createdAt: createdAt(),
    disabledAt: timestamptz('disabled_at'),
    /** The console password as `pbkdf2-sha256$<iterations>$<salt>$<hash>`; null until the owner enrols. */
    passwordHash: text('password_hash'),
    passwordSetAt: timestamptz('password_set_at'),
  },
  (t) => [uniqueIndex('owners_name_key').on(t.name)],
);

/**
 * Sign-in attempts by password, per name as typed (so a name that is no owner is throttled alike and the
 * answer does not tell which names exist). Written before the password is checked, so parallel guesses count;
 * a successful sign-in clears the name's rows.
 */
export const ownerSignInAttempts = pgTable(
  'owner_sign_in_attempts',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    at: timestamptz('at').notNull(),
  },
  (t) => [index('owner_sign_in_attempts_name_idx').on(t.name, t.at)],
);

/** Single-use login links: the token's SHA-256, its owner, a short expiry, when it was used. */
export const ownerLoginLinks = pgTable(
  'owner_login_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => owners.id),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (t) => [index('owner_login_links_owner_idx').on(t.ownerId)],
);

/**
 * Console sessions: the cookie's SHA-256; ended by logout (ended_at), by their absolute lifetime (expires_at)
 * or by idleness (no request since last_seen_at for longer than the idle timeout).
 */
export const ownerSessions = pgTable(
  'owner_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => owners.id),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    endedAt: timestamptz('ended_at'),
    lastSeenAt: timestamptz('last_seen_at').notNull().defaultNow(),
  },
  (t) => [index('owner_sessions_owner_idx').on(t.ownerId)],
);

export const approvalStates = ['pending', 'approved', 'rejected', 'used'] as const;
export type ApprovalState = (typeof approvalStates)[number];

/**
 * Approval requests: one owner-gated call (tool, agent, decoded arguments and their hash) refused in approval
 * mode, waiting for the owner's decision. An approved request opens the gate once, for that agent and those
 * arguments, until `expires_at`; using it records the request id of the call (audit_log.request_id).
 */
export const ownerApprovals = pgTable(
  'owner_approvals',
  {
    id: uuid('id').primaryKey(),
    tool: text('tool').notNull(),
    agent: text('agent').notNull(),
    /** The decoded arguments without the gate's own parameters, as the owner reviews them. */
    args: jsonb('args').$type<Record<string, unknown>>().notNull(),
    argsSha256: text('args_sha256').notNull(),
    /** Why the agent asks. */
    agentReason: text('agent_reason'),
    state: text('state', { enum: approvalStates }).notNull(),
    requestedAt: timestamptz('requested_at').notNull(),
    requestId: text('request_id').notNull(),
    decidedBy: uuid('decided_by').references(() => owners.id),
    decidedByName: text('decided_by_name'),
    decidedAt: timestamptz('decided_at'),
    decisionReason: text('decision_reason'),
    /** Set when approved: the approval opens the gate only before this. */
    expiresAt: timestamptz('expires_at'),
    usedAt: timestamptz('used_at'),
    /** The request id of the call that used the approval (its audit_log row has the same request_id). */
    usedRequestId: text('used_request_id'),
    /** The envelope of the call that used it: the same call repeated with the approval replays it. */
    result: jsonb('result').$type<Record<string, unknown>>(),
  },
  (t) => [
    // One open request per call: a refused call repeated finds the request it created.
    uniqueIndex('owner_approvals_pending_key')
      .on(t.agent, t.tool, t.argsSha256)
      .where(sql`${t.state} = 'pending'`),
    index('owner_approvals_state_idx').on(t.state, t.requestedAt),
    index('owner_approvals_call_idx').on(t.agent, t.tool, t.argsSha256),
  ],
);

export type OwnerRow = typeof owners.$inferSelect;
export type OwnerApprovalRow = typeof ownerApprovals.$inferSelect;
