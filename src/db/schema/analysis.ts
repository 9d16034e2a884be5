// The analysed case file (docs/contract.md "Extraction"): references, claims and the agents' argument maps,
// and the appraisers' facts. Extracted rows carry provenance (./provenance.ts); a re-run of an
// extractor keeps the rows it finds again (same ids), drops only its own rows it no longer finds, and never
// touches what an agent recorded or decided.

import {
  bigint,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from '../orm.ts';
import { cases } from './cases.ts';
import { createdAt, timestamptz, updatedAt } from './columns.ts';
import { provenanceColumns } from './provenance.ts';

/** What a reference names. */
export const referenceKinds = ['statute', 'section', 'regulation', 'plan', 'parcel'] as const;
export type ReferenceKind = (typeof referenceKinds)[number];

/** Whose claim it is, and whether it argues or asks for relief. */
export const claimParties = ['appellant', 'respondent', 'third_party'] as const;
export type ClaimParty = (typeof claimParties)[number];
export const claimKinds = ['claim', 'relief'] as const;
export type ClaimKind = (typeof claimKinds)[number];

/**
 * The facts an appraisal states, their units, and the appraiser's role in the file. A compensation case
 * (section 197) uses value_prior and value_new for the value before and after the plan, and adds the injury,
 * the compensation and the reduction for the reasonable range; `claimed` is a sum a party claimed, as a
 * decision states it. Text enums: a new kind needs no migration.
 */
export const factKinds = [
  'determining_date',
  'value_prior',
  'value_new',
  'betterment',
  'levy',
  'price_per_sqm',
  'area',
  'coefficient',
  'injury',
  'compensation',
  'reasonable_reduction',
  'claimed',
] as const;
export type FactKind = (typeof factKinds)[number];
export const factUnits = ['date', 'agorot', 'sqm', 'percent'] as const;
export type FactUnit = (typeof factUnits)[number];
/** `decision`: the figures a decision of the case states (the levy it set, the compensation it awarded). */
export const appraiserRoles = [
  'deciding',
  'advisory',
  'committee',
  'appellants',
  'other',
  'decision',
] as const;
export type AppraiserRole = (typeof appraiserRoles)[number];

/**
 * A reference found in a case document, under its canonical key (a plan written three ways is one key).
 * `fingerprint` names the finding (kind, key, page, offsets) so a re-run keeps the same row.
 */
export const caseReferences = pgTable(
  'case_references',
  {
    id: uuid('id').primaryKey(),
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id),
    kind: text('kind', { enum: referenceKinds }).notNull(),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    ...provenanceColumns(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('case_references_finding').on(t.documentId, t.fingerprint),
    index('case_references_case_key_idx').on(t.caseId, t.kind, t.key),
  ],
);

export const claimStatuses = ['candidate', 'confirmed', 'rejected', 'merged'] as const;
export type ClaimStatus = (typeof claimStatuses)[number];
/** extracted: a candidate the rules found; recorded: added by an agent. */
export const claimOrigins = ['extracted', 'recorded'] as const;

/**
 * A claim or relief request of a party. Extracted candidates are unique per span of their document; a
 * recorded claim per (case, party, normalised text). An agent's decision changes status, wording, merge
 * target and who decided why; the original text and offsets stay.
 */
export const claims = pgTable(
  'claims',
  {
    id: uuid('id').primaryKey(),
    /** Document order for extracted rows (inserted in reading order); the stable order of claim_list. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id),
    party: text('party', { enum: claimParties }).notNull(),
    kind: text('kind', { enum: claimKinds }).notNull(),
    status: text('status', { enum: claimStatuses }).notNull().default('candidate'),
    origin: text('origin', { enum: claimOrigins }).notNull(),
    label: text('label'),
    heading: text('heading'),
    /** normalizeHebrew of the text (recorded: of the agent's wording): the natural key of a recorded claim. */
    normText: text('norm_text').notNull(),
    /** The agent's wording, beside the original. */
    wording: text('wording'),
    mergedInto: uuid('merged_into'),
    decidedBy: text('decided_by'),
    reason: text('reason'),
    decidedAt: timestamptz('decided_at'),
    createdBy: text('created_by').notNull(),
    ...provenanceColumns(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('claims_extracted_span')
      .on(t.documentId, t.page, t.start, t.end)
      .where(sql`${t.origin} = 'extracted'`),
    uniqueIndex('claims_recorded_key').on(t.caseId, t.party, t.normText).where(sql`${t.origin} = 'recorded'`),
    index('claims_case_seq_idx').on(t.caseId, t.seq),
  ],
);

export const claimActionKinds = ['confirm', 'reword', 'reject', 'merge'] as const;
export type ClaimActionKind = (typeof claimActionKinds)[number];

/** Every change an agent made to a claim, once per (claim, action, content): the durable retry key. */
export const claimActions = pgTable(
  'claim_actions',
  {
    id: uuid('id').primaryKey(),
    claimId: uuid('claim_id')
      .notNull()
      .references(() => claims.id, { onDelete: 'cascade' }),
    action: text('action', { enum: claimActionKinds }).notNull(),
    /** The wording (reword) or the target claim (merge); empty for confirm and reject. */
    content: text('content').notNull(),
    reason: text('reason'),
    agent: text('agent').notNull(),
    createdAt: createdAt(),
  },
  (t) => [unique('claim_actions_key').on(t.claimId, t.action, t.content)],
);

/** A version of a case's argument map: the agents' grouping of claims, written whole in one transaction. */
export const argumentMaps = pgTable(
  'argument_maps',
  {
    id: uuid('id').primaryKey(),
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id),
    version: integer('version').notNull(),
    /** SHA-256 of the grouping's canonical form: the same grouping again is the same version. */
    contentHash: text('content_hash').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
  },
  (t) => [unique('argument_maps_version').on(t.caseId, t.version)],
);

export const caseArguments = pgTable(
  'case_arguments',
  {
    id: uuid('id').primaryKey(),
    mapId: uuid('map_id')
      .notNull()
      .references(() => argumentMaps.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    title: text('title').notNull(),
    party: text('party', { enum: claimParties }).notNull(),
    summary: text('summary'),
  },
  (t) => [unique('case_arguments_position').on(t.mapId, t.position)],
);

/** A claim in an argument; the key makes each claim appear in at most one argument per version. */
export const argumentClaims = pgTable(
  'argument_claims',
  {
    mapId: uuid('map_id')
      .notNull()
      .references(() => argumentMaps.id, { onDelete: 'cascade' }),
    argumentId: uuid('argument_id')
      .notNull()
      .references(() => caseArguments.id, { onDelete: 'cascade' }),
    claimId: uuid('claim_id')
      .notNull()
      .references(() => claims.id),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.mapId, t.claimId] }), index('argument_claims_claim_idx').on(t.claimId)],
);

/** extracted: found by the rules; recorded: added by an agent (appraiser_fact_record), a correction included. */
export const factOrigins = ['extracted', 'recorded'] as const;
export type FactOrigin = (typeof factOrigins)[number];
/** active: counts; rejected: an agent rejected it; corrected: an agent's correction (`corrects`) stands for it. */
export const factStatuses = ['active', 'rejected', 'corrected'] as const;
export type FactStatus = (typeof factStatuses)[number];

/**
 * A fact of an appraisal with its normalised value (agorot, m², percent; a date as days since 1970-01-01),
 * its appraiser, and the parcel and plan it is about. An agent's fact is a row of its own (origin recorded,
 * fingerprint `recorded|…` or `correct|<fact id>`), beside the extractor's; an agent's rejection or
 * correction of an extracted fact changes only its status, which a re-run keeps (same fingerprint, same row).
 */
export const appraisalFacts = pgTable(
  'appraisal_facts',
  {
    id: uuid('id').primaryKey(),
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id),
    kind: text('kind', { enum: factKinds }).notNull(),
    name: text('name'),
    value: doublePrecision('value').notNull(),
    unit: text('unit', { enum: factUnits }).notNull(),
    appraiserName: text('appraiser_name'),
    appraiserRole: text('appraiser_role', { enum: appraiserRoles }).notNull(),
    parcel: text('parcel'),
    plan: text('plan'),
    note: text('note'),
    fingerprint: text('fingerprint').notNull(),
    origin: text('origin', { enum: factOrigins }).notNull().default('extracted'),
    status: text('status', { enum: factStatuses }).notNull().default('active'),
    /** The fact this recorded row corrects. */
    corrects: uuid('corrects'),
    /** The agent who recorded, rejected or corrected it, and why. */
    decidedBy: text('decided_by'),
    reason: text('reason'),
    decidedAt: timestamptz('decided_at'),
    ...provenanceColumns(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('appraisal_facts_finding').on(t.documentId, t.fingerprint),
    index('appraisal_facts_case_kind_idx').on(t.caseId, t.kind),
  ],
);
