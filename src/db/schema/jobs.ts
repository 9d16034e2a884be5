import { bigint, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from '../orm.ts';
import { createdAt, timestamptz, updatedAt } from './columns.ts';

/**
 * pending → running → succeeded | dead. A failed attempt that will be retried goes back to `pending`
 * with a later `run_at` and its `last_error` kept (extraction_status reports it as "failed").
 */
export const jobStates = ['pending', 'running', 'succeeded', 'dead'] as const;
export type JobState = (typeof jobStates)[number];

/** The durable queue (src/jobs/queue.ts): one row per unit of slow work, enqueued with the row needing it. */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey(),
    /** Enqueue order: breaks run_at ties (clocks, PGlite's especially, are coarser than enqueue rates). */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    /** Which handler runs it (src/jobs/handlers.ts), e.g. "document_extract". */
    kind: text('kind').notNull(),
    /** Unique per kind: enqueueing the same work twice is a no-op that returns the first job. */
    dedupeKey: text('dedupe_key').notNull(),
    /** What the job works on, e.g. "document:<uuid>", for per-subject status. */
    subject: text('subject'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    state: text('state', { enum: jobStates }).notNull().default('pending'),
    /** Attempts started so far; incremented on claim, so (id, attempt) names one run. */
    attempt: integer('attempt').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    /** Not claimed before this instant (retry backoff, delayed work). */
    runAt: timestamptz('run_at').notNull().defaultNow(),
    /** A running job whose lease has lapsed is claimable again (its worker is presumed dead). */
    leaseUntil: timestamptz('lease_until'),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: timestamptz('finished_at'),
  },
  (t) => [
    uniqueIndex('jobs_kind_dedupe_key').on(t.kind, t.dedupeKey),
    index('jobs_subject_idx').on(t.subject),
    // The claim walks due pending work in (run_at, seq) order and stops at its limit: no sort, whatever the
    // depth of the queue. (No (kind, state) index: the planner would prefer it and sort every pending row.)
    index('jobs_due_idx').on(t.runAt, t.seq).where(sql`${t.state} = 'pending'`),
    index('jobs_lease_idx').on(t.leaseUntil).where(sql`${t.state} = 'running'`),
  ],
);

export type JobRow = typeof jobs.$inferSelect;
