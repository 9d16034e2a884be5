// metrics_get's figures over the cases created in a period: how many reached each stage and how long after
// the case was opened, the extraction queue, the validation pass rate, and how much the chair edited each
// kind of block between the export and the signed final version.

import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { liveCase } from '../cases/live.ts';
import { and, avg, count, eq, gte, isNotNull, type SQL, sql } from '../db/orm.ts';
import { argumentMaps } from '../db/schema/analysis.ts';
import { cases } from '../db/schema/cases.ts';
import { documents } from '../db/schema/documents.ts';
import type { BlockKind } from '../db/schema/drafting.ts';
import { draftBlocks, draftExports, finalVersionBlocks, finalVersions } from '../db/schema/drafting.ts';
import { jobs } from '../db/schema/jobs.ts';
import { directions, validationRuns } from '../db/schema/review.ts';
import type { DbOrTx } from '../db/types.ts';
import { type WorkflowStage, workflowStages } from './workflow.ts';

export const periods = ['7d', '30d', '90d', '365d', 'all'] as const;
export type Period = (typeof periods)[number];

const DAYS: Record<Period, number | null> = { '7d': 7, '30d': 30, '90d': 90, '365d': 365, all: null };

export const sinceOf = (period: Period, now: Date): Date | null => {
  const days = DAYS[period];
  return days === null ? null : new Date(now.getTime() - days * 86_400_000);
};

/** When a case first reached each stage: the first row that shows it. */
const REACHED: Record<
  WorkflowStage,
  { table: PgTable; caseId: AnyPgColumn; at: AnyPgColumn; where?: SQL | undefined }
> = {
  intake: { table: documents, caseId: documents.caseId, at: documents.createdAt },
  documents: {
    table: documents,
    caseId: documents.caseId,
    at: documents.extractedAt,
    where: eq(documents.status, 'ready'),
  },
  analysis: { table: argumentMaps, caseId: argumentMaps.caseId, at: argumentMaps.createdAt },
  direction: {
    table: directions,
    caseId: directions.caseId,
    at: directions.approvedAt,
    where: isNotNull(directions.approvedAt),
  },
  drafting: { table: draftBlocks, caseId: draftBlocks.caseId, at: draftBlocks.createdAt },
  validation: {
    table: validationRuns,
    caseId: validationRuns.caseId,
    at: validationRuns.createdAt,
    where: and(eq(validationRuns.target, 'draft'), eq(validationRuns.errors, 0)),
  },
  export: { table: draftExports, caseId: draftExports.caseId, at: draftExports.createdAt },
  final: { table: finalVersions, caseId: finalVersions.caseId, at: finalVersions.createdAt },
};

export interface Metrics {
  cases: number;
  stages: { stage: WorkflowStage; reached: number; mean_hours: number | null }[];
  queue: { pending: number; running: number; failed: number; dead: number; succeeded: number };
  validation: { runs: number; passed: number; pass_rate: number | null };
  edit_ratio: { kind: BlockKind; blocks: number; mean: number }[];
}

const round = (x: number, places = 3) => Math.round(x * 10 ** places) / 10 ** places;

export async function metrics(db: DbOrTx, since: Date | null): Promise<Metrics> {
  const inPeriod = and(liveCase, since === null ? undefined : gte(cases.createdAt, since));
  const [total] = await db.select({ n: count() }).from(cases).where(inPeriod);
  const stages: Metrics['stages'] = [];
  for (const stage of workflowStages) {
    const r = REACHED[stage];
    // The first time per case, then over the cases: how many, and the mean hours since the case was opened.
    const first = db
      .select({ caseId: sql<string>`${r.caseId}`.as('case_id'), at: sql<Date>`min(${r.at})`.as('first_at') })
      .from(r.table)
      .where(and(isNotNull(r.caseId), isNotNull(r.at), r.where))
      .groupBy(r.caseId)
      .as('first');
    const [row] = await db
      .select({
        n: count(),
        hours: sql<string | null>`avg(extract(epoch from (${first.at} - ${cases.createdAt})) / 3600)`,
      })
      .from(first)
      .innerJoin(cases, eq(cases.id, first.caseId))
      .where(inPeriod);
    stages.push({
      stage,
      reached: Number(row?.n ?? 0),
      mean_hours: row?.hours == null ? null : round(Number(row.hours), 2),
    });
  }
  const states = await db
    .select({
      state: jobs.state,
      failing: sql<boolean>`${jobs.state} = 'pending' and ${jobs.lastError} is not null`,
      n: count(),
    })
    .from(jobs)
    .groupBy(jobs.state, sql`2`);
  const jobsOf = (s: string, failing = false) =>
    states
      .filter((r) => r.state === s && Boolean(r.failing) === failing)
      .reduce((a, r) => a + Number(r.n), 0);
  const [runs] = await db
    .select({ n: count(), passed: sql<number>`count(*) filter (where ${validationRuns.errors} = 0)` })
    .from(validationRuns)
    .innerJoin(cases, eq(cases.id, validationRuns.caseId))
    .where(and(inPeriod, eq(validationRuns.target, 'draft')));
  const ratios = await db
    .select({ kind: finalVersionBlocks.kind, n: count(), mean: avg(finalVersionBlocks.editRatio) })
    .from(finalVersionBlocks)
    .innerJoin(cases, eq(cases.id, finalVersionBlocks.caseId))
    .where(and(inPeriod, isNotNull(finalVersionBlocks.editRatio)))
    .groupBy(finalVersionBlocks.kind)
    .orderBy(finalVersionBlocks.kind);
  const nRuns = Number(runs?.n ?? 0);
  const passed = Number(runs?.passed ?? 0);
  return {
    cases: Number(total?.n ?? 0),
    stages,
    queue: {
      pending: jobsOf('pending'),
      running: jobsOf('running'),
      failed: jobsOf('pending', true),
      dead: jobsOf('dead'),
      succeeded: jobsOf('succeeded'),
    },
    validation: { runs: nRuns, passed, pass_rate: nRuns === 0 ? null : round(passed / nRuns) },
    edit_ratio: ratios.map((r) => ({ kind: r.kind, blocks: Number(r.n), mean: round(Number(r.mean ?? 0)) })),
  };
}
