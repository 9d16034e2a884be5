// The governance family (functions/hai/): projects and their device mounts, versioned run-contract
// artifacts, inbox, focus lanes, next-step proposals, checkpoints, missions with versioned finite
// contracts, session leases (the mission's lease epoch is the authority) and evidence. Nothing here is
// ever deleted: rows change state (superseded, parked, revoked, closed) instead.

import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from '../orm.ts';
import { cases } from './cases.ts';
import { timestamptz } from './columns.ts';

/** A logical project (HAI's projects.json entry): the project the artifacts, lanes and inbox belong to. */
export const haiProjects = pgTable('hai_projects', {
  id: text('id').primaryKey(),
  title: text('title'),
  /** The case the project works on, when bound to one: hai_status shows its stage. */
  caseId: uuid('case_id').references(() => cases.id),
  createdBy: text('created_by').notNull(),
  createdAt: timestamptz('created_at').notNull(),
});

/** Where a project lives on one device (HAI's per-device `mounts`); bound with the owner's acknowledgement. */
export const haiMounts = pgTable(
  'hai_mounts',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => haiProjects.id),
    deviceId: text('device_id').notNull(),
    mountPath: text('mount_path').notNull(),
    boundBy: text('bound_by').notNull(),
    boundAt: timestamptz('bound_at').notNull(),
    reason: text('reason').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.deviceId] })],
);

/** Every version of every run-contract artifact of a project; the latest version is the current text. */
export const haiArtifacts = pgTable(
  'hai_artifacts',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => haiProjects.id),
    name: text('name').notNull(),
    version: integer('version').notNull(),
    content: text('content').notNull(),
    sha256: text('sha256').notNull(),
    writtenBy: text('written_by').notNull(),
    writtenAt: timestamptz('written_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.name, t.version] })],
);

/** The inbox (hai_park): ideas and inputs set aside for later; one row per distinct text per project. */
export const haiInbox = pgTable(
  'hai_inbox',
  {
    id: uuid('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => haiProjects.id),
    text: text('text').notNull(),
    textSha256: text('text_sha256').notNull(),
    source: text('source'),
    parkedBy: text('parked_by').notNull(),
    parkedAt: timestamptz('parked_at').notNull(),
  },
  (t) => [
    uniqueIndex('hai_inbox_text_key').on(t.projectId, t.textSha256),
    index('hai_inbox_project_idx').on(t.projectId, t.parkedAt),
  ],
);

export const laneStates = ['active', 'parked'] as const;

/** Focus lanes (HAI's ACTIVE_CONTEXT): at most two active per project. */
export const haiLanes = pgTable(
  'hai_lanes',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => haiProjects.id),
    lane: text('lane').notNull(),
    state: text('state', { enum: laneStates }).notNull(),
    note: text('note'),
    updatedBy: text('updated_by').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.lane] })],
);

export const proposalStates = ['pending', 'accepted', 'superseded'] as const;

/** Proposed next steps: one per version of NEXT_STEP.proposed.md; accepting one writes NEXT_STEP.md. */
export const haiProposals = pgTable(
  'hai_proposals',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => haiProjects.id),
    /** The NEXT_STEP.proposed.md version that holds the text. */
    version: integer('version').notNull(),
    state: text('state', { enum: proposalStates }).notNull(),
    proposedBy: text('proposed_by').notNull(),
    proposedAt: timestamptz('proposed_at').notNull(),
    acceptedBy: text('accepted_by'),
    acceptedAt: timestamptz('accepted_at'),
    acceptReason: text('accept_reason'),
    /** The NEXT_STEP.md version the acceptance wrote. */
    canonicalVersion: integer('canonical_version'),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.version] }),
    // At most one proposal waits for acceptance per project.
    uniqueIndex('hai_proposals_pending_key').on(t.projectId).where(sql`${t.state} = 'pending'`),
  ],
);

/** History: a named checkpoint per project, with the artifact versions it wrote and saw. */
export const haiCheckpoints = pgTable(
  'hai_checkpoints',
  {
    id: uuid('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => haiProjects.id),
    label: text('label').notNull(),
    summary: text('summary').notNull(),
    /** name → version of every artifact at the checkpoint. */
    artifacts: jsonb('artifacts').$type<Record<string, number>>().notNull(),
    /** The names this checkpoint wrote. */
    written: jsonb('written').$type<string[]>().notNull(),
    /** SHA-256 of the checkpoint's arguments, to tell a retry from a different checkpoint under the same label. */
    argsSha256: text('args_sha256').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [uniqueIndex('hai_checkpoints_label_key').on(t.projectId, t.label)],
);

export const missionStates = ['active', 'completed', 'abandoned'] as const;

/** A mission: a finite piece of work under a versioned contract. `lease_epoch` is the lease authority. */
export const haiMissions = pgTable(
  'hai_missions',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    projectId: text('project_id').references(() => haiProjects.id),
    /** The case a case mission governs (its legal tools then need a lease on it, src/governance/enforce.ts). */
    caseId: uuid('case_id').references(() => cases.id),
    /**
     * The project id, `case:<case id>` for a case mission, or '*' for a mission of neither: one active
     * mission per scope, so one per case, and missions of different cases run at once.
     */
    scopeKey: text('scope_key').notNull(),
    title: text('title').notNull(),
    state: text('state', { enum: missionStates }).notNull(),
    currentVersion: integer('current_version').notNull(),
    /** Bumped by every revocation (recontract, close); a lease of an older epoch can never act. */
    leaseEpoch: integer('lease_epoch').notNull(),
    openedBy: text('opened_by').notNull(),
    openedAt: timestamptz('opened_at').notNull(),
    closedBy: text('closed_by'),
    closedAt: timestamptz('closed_at'),
    closeReason: text('close_reason'),
    closeSummary: text('close_summary'),
  },
  (t) => [
    uniqueIndex('hai_missions_name_key').on(t.scopeKey, t.name),
    uniqueIndex('hai_missions_active_key').on(t.scopeKey).where(sql`${t.state} = 'active'`),
    index('hai_missions_case_idx').on(t.caseId, t.state),
  ],
);

export interface ContractCriterion {
  id: string;
  description: string;
  verification: string;
  /** A check the server runs on a case instead of free evidence (src/review/criteria.ts). */
  check?: { kind: 'draft_valid' | 'exported' | 'final_ingested'; case_id: string } | null;
}

/** One version of a mission's finite contract. */
export const haiContracts = pgTable(
  'hai_contracts',
  {
    missionId: uuid('mission_id')
      .notNull()
      .references(() => haiMissions.id),
    version: integer('version').notNull(),
    goal: text('goal').notNull(),
    inScope: jsonb('in_scope').$type<string[]>().notNull(),
    outOfScope: jsonb('out_of_scope').$type<string[]>().notNull(),
    criteria: jsonb('criteria').$type<ContractCriterion[]>().notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    maxSessions: integer('max_sessions').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    reason: text('reason'),
    breakGlass: boolean('break_glass').notNull().default(false),
    breakGlassMarker: text('break_glass_marker'),
    /** SHA-256 of the contract's terms, to recognise a retried recontract. */
    termsSha256: text('terms_sha256').notNull(),
  },
  (t) => [primaryKey({ columns: [t.missionId, t.version] })],
);

/** Session leases; the key-value store holds a copy with a TTL, Postgres decides. */
export const haiLeases = pgTable(
  'hai_leases',
  {
    id: uuid('id').primaryKey(),
    missionId: uuid('mission_id')
      .notNull()
      .references(() => haiMissions.id),
    contractVersion: integer('contract_version').notNull(),
    epoch: integer('epoch').notNull(),
    agent: text('agent').notNull(),
    deviceId: text('device_id'),
    harnessId: text('harness_id'),
    issuedAt: timestamptz('issued_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    revokedAt: timestamptz('revoked_at'),
    revokeReason: text('revoke_reason'),
  },
  (t) => [index('hai_leases_mission_idx').on(t.missionId, t.epoch, t.expiresAt)],
);

/** Audit of hai_check_activity: what a session asked and what the contract answered. */
export const haiActivityChecks = pgTable(
  'hai_activity_checks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    leaseId: uuid('lease_id')
      .notNull()
      .references(() => haiLeases.id),
    activity: text('activity').notNull(),
    inScope: boolean('in_scope').notNull(),
    matched: text('matched'),
    agent: text('agent').notNull(),
    checkedAt: timestamptz('checked_at').notNull(),
  },
  (t) => [uniqueIndex('hai_activity_checks_key').on(t.leaseId, t.activity)],
);

export const proofResults = ['pass', 'fail'] as const;

/** Evidence per criterion (hai_proof). */
export const haiEvidence = pgTable(
  'hai_evidence',
  {
    id: uuid('id').primaryKey(),
    missionId: uuid('mission_id')
      .notNull()
      .references(() => haiMissions.id),
    contractVersion: integer('contract_version').notNull(),
    criterionId: text('criterion_id').notNull(),
    leaseId: uuid('lease_id')
      .notNull()
      .references(() => haiLeases.id),
    checked: text('checked').notNull(),
    result: text('result', { enum: proofResults }).notNull(),
    evidence: text('evidence'),
    deviceId: text('device_id'),
    recordedBy: text('recorded_by').notNull(),
    recordedAt: timestamptz('recorded_at').notNull(),
    /** SHA-256 of (criterion, checked, result, evidence, device): one row per distinct proof per lease. */
    proofSha256: text('proof_sha256').notNull(),
  },
  (t) => [
    uniqueIndex('hai_evidence_key').on(t.leaseId, t.proofSha256),
    index('hai_evidence_mission_idx').on(t.missionId, t.contractVersion, t.criterionId),
  ],
);

/**
 * The owner's confirmation of a free-text criterion (hai_criterion_confirm, in the console): an agent's
 * evidence for such a criterion is its word, and only this row makes the criterion count for closing.
 * One per criterion per contract version: a recontract asks again.
 */
export const haiConfirmations = pgTable(
  'hai_confirmations',
  {
    missionId: uuid('mission_id')
      .notNull()
      .references(() => haiMissions.id),
    contractVersion: integer('contract_version').notNull(),
    criterionId: text('criterion_id').notNull(),
    /** The owner principal (`owner:<name>`). */
    confirmedBy: text('confirmed_by').notNull(),
    confirmedAt: timestamptz('confirmed_at').notNull(),
    reason: text('reason').notNull(),
  },
  (t) => [primaryKey({ columns: [t.missionId, t.contractVersion, t.criterionId] })],
);

/** Parked work items of a mission (hai_park_item): recorded with a rationale, never an execution right. */
export const haiParkedItems = pgTable(
  'hai_parked_items',
  {
    id: uuid('id').primaryKey(),
    missionId: uuid('mission_id')
      .notNull()
      .references(() => haiMissions.id),
    item: text('item').notNull(),
    itemSha256: text('item_sha256').notNull(),
    rationale: text('rationale').notNull(),
    parkedBy: text('parked_by').notNull(),
    parkedAt: timestamptz('parked_at').notNull(),
  },
  (t) => [uniqueIndex('hai_parked_items_key').on(t.missionId, t.itemSha256)],
);

export type HaiMissionRow = typeof haiMissions.$inferSelect;
export type HaiContractRow = typeof haiContracts.$inferSelect;
export type HaiLeaseRow = typeof haiLeases.$inferSelect;
