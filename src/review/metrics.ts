// metrics_get's figures over the cases created in a period: how many reached each stage and how long after
// the case was opened, the backlog by stage, the age of the open files and the days to their due dates, the
// throughput per practice area, the extraction queue, the validation pass rate, and how much the chair edited
// each kind of block between the export and the signed final version (and month by month). Where a case
// stands is workflow_status's answer (caseState + stageOf), never a second reckoning.

import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { liveCase } from '../cases/live.ts';
import { type DeadlineState, datesView, deadlineOf, localDay } from '../cases/schedule.ts';
import { and, asc, avg, count, eq, gte, inArray, isNotNull, type SQL, sql } from '../db/orm.ts';
import { argumentMaps } from '../db/schema/analysis.ts';
import { type CaseRow, caseDates, cases } from '../db/schema/cases.ts';
import { documents } from '../db/schema/documents.ts';
import type { BlockKind } from '../db/schema/drafting.ts';
import { draftBlocks, draftExports, finalVersionBlocks, finalVersions } from '../db/schema/drafting.ts';
import { jobs } from '../db/schema/jobs.ts';
import { directions, validationRuns } from '../db/schema/review.ts';
import { type PracticeArea, practiceAreas } from '../db/schema/vocabulary.ts';
import type { DbOrTx } from '../db/types.ts';
import { caseState, stageOf, type WorkflowStage, workflowStages } from './workflow.ts';

export const periods = ['7d', '30d', '90d', '365d', 'all'] as const;
export type Period = (typeof periods)[number];

const DAYS: Record<Period, number | null> = { '7d': 7, '30d': 30, '90d': 90, '365d': 365, all: null };

export const sinceOf = (period: Period, now: Date): Date | null => {
  const days = DAYS[period];
  return days === null ? null : new Date(now.getTime() - days * 86_400_000);
};

/**
 * When a case reached each stage, for the cases workflow_status counts it done for: the first row that shows
 * it (`last`: the last such row, for a stage done once every row is, as every document read).
 */
const REACHED: Record<
  WorkflowStage,
  { table: PgTable; caseId: AnyPgColumn; at: AnyPgColumn; where?: SQL | undefined; last?: true }
> = {
  intake: { table: documents, caseId: documents.caseId, at: documents.createdAt },
  documents: {
    table: documents,
    caseId: documents.caseId,
    at: documents.extractedAt,
    where: eq(documents.status, 'ready'),
    last: true,
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

export interface DueCase {
  case_id: string;
  case_number: string;
  stage: WorkflowStage;
  due_date: string;
  days_left: number;
  state: DeadlineState;
}

export interface Metrics {
  cases: number;
  stages: { stage: WorkflowStage; reached: number; mean_hours: number | null }[];
  backlog: { stage: WorkflowStage; cases: number }[];
  open: { cases: number; mean_age_days: number | null; max_age_days: number | null };
  due: {
    passed: number;
    due_soon: number;
    later: number;
    no_due_date: number;
    cases: DueCase[];
  };
  throughput: {
    practice_area: PracticeArea | null;
    opened: number;
    finished: number;
    mean_days: number | null;
  }[];
  edit_ratio_by_month: { month: string; blocks: number; mean: number }[];
  queue: { pending: number; running: number; failed: number; dead: number; succeeded: number };
  validation: { runs: number; passed: number; pass_rate: number | null };
  edit_ratio: { kind: BlockKind; blocks: number; mean: number }[];
}

const round = (x: number, places = 3) => Math.round(x * 10 ** places) / 10 ** places;

/** The due cases listed by metrics_get, nearest first. */
export const MAX_DUE_CASES = 50;

/** Where each case stands, by workflow_status's own functions (one stage rule for both tools). */
async function standings(db: DbOrTx, rows: readonly CaseRow[]) {
  const out: { row: CaseRow; stage: WorkflowStage; done: WorkflowStage[] }[] = [];
  for (const row of rows) {
    const { stage, done } = stageOf(row, await caseState(db, row));
    out.push({ row, stage, done });
  }
  return out;
}

const isOpen = (c: { row: CaseRow; stage: WorkflowStage }) =>
  c.stage !== 'final' && c.row.status !== 'decided' && c.row.status !== 'archived';

export async function metrics(db: DbOrTx, since: Date | null, now: Date): Promise<Metrics> {
  const inPeriod = and(liveCase, since === null ? undefined : gte(cases.createdAt, since));
  const rows = await db.select().from(cases).where(inPeriod).orderBy(asc(cases.createdAt), asc(cases.id));
  const standing = await standings(db, rows);
  const stages: Metrics['stages'] = [];
  for (const stage of workflowStages) {
    const r = REACHED[stage];
    const doneIds = standing.filter((c) => c.done.includes(stage)).map((c) => c.row.id);
    if (doneIds.length === 0) {
      stages.push({ stage, reached: 0, mean_hours: null });
      continue;
    }
    // When each case reached it, then over the cases: the mean hours since the case was opened.
    const first = db
      .select({
        caseId: sql<string>`${r.caseId}`.as('case_id'),
        at: (r.last ? sql<Date>`max(${r.at})` : sql<Date>`min(${r.at})`).as('first_at'),
      })
      .from(r.table)
      .where(and(isNotNull(r.caseId), isNotNull(r.at), r.where, inArray(r.caseId, doneIds)))
      .groupBy(r.caseId)
      .as('first');
    const [row] = await db
      .select({
        hours: sql<string | null>`avg(extract(epoch from (${first.at} - ${cases.createdAt})) / 3600)`,
      })
      .from(first)
      .innerJoin(cases, eq(cases.id, first.caseId));
    stages.push({
      stage,
      reached: doneIds.length,
      mean_hours: row?.hours == null ? null : round(Number(row.hours), 2),
    });
  }
  const open = standing.filter(isOpen);
  const backlog = workflowStages.map((stage) => ({
    stage,
    cases: open.filter((c) => c.stage === stage).length,
  }));
  const ages = open.map((c) => (now.getTime() - c.row.createdAt.getTime()) / 86_400_000);
  const today = localDay(now);
  const dateRows =
    open.length === 0
      ? []
      : await db
          .select()
          .from(caseDates)
          .where(
            inArray(
              caseDates.caseId,
              open.map((c) => c.row.id),
            ),
          );
  const due: DueCase[] = [];
  for (const c of open) {
    const deadline = deadlineOf(
      datesView(dateRows.find((d) => d.caseId === c.row.id)).decision_due_date,
      today,
    );
    if (deadline === null) continue;
    due.push({
      case_id: c.row.id,
      case_number: c.row.caseNumber,
      stage: c.stage,
      due_date: deadline.due_date,
      days_left: deadline.days_left,
      state: deadline.state,
    });
  }
  due.sort((a, b) => a.days_left - b.days_left || a.case_number.localeCompare(b.case_number));
  const dueOf = (s: DeadlineState) => due.filter((d) => d.state === s).length;
  const finishedAt = await db
    .select({ caseId: finalVersions.caseId, at: sql<Date>`min(${finalVersions.createdAt})` })
    .from(finalVersions)
    .where(
      rows.length === 0
        ? sql`false`
        : inArray(
            finalVersions.caseId,
            rows.map((r) => r.id),
          ),
    )
    .groupBy(finalVersions.caseId);
  const throughput: Metrics['throughput'] = [];
  for (const area of [...practiceAreas, null]) {
    const of = standing.filter((c) => c.row.practiceArea === area);
    if (of.length === 0) continue;
    const finished = of.filter((c) => !isOpen(c));
    const days = finished
      .map((c) => {
        const at = finishedAt.find((f) => f.caseId === c.row.id)?.at;
        return at == null ? null : (new Date(at).getTime() - c.row.createdAt.getTime()) / 86_400_000;
      })
      .filter((d): d is number => d !== null);
    throughput.push({
      practice_area: area,
      opened: of.length,
      finished: finished.length,
      mean_days: days.length === 0 ? null : round(days.reduce((a, d) => a + d, 0) / days.length, 1),
    });
  }
  const month = sql<string>`to_char(${finalVersions.createdAt} at time zone 'Asia/Jerusalem', 'YYYY-MM')`;
  const monthly = await db
    .select({ month, n: count(), mean: avg(finalVersionBlocks.editRatio) })
    .from(finalVersionBlocks)
    .innerJoin(finalVersions, eq(finalVersions.id, finalVersionBlocks.finalId))
    .innerJoin(cases, eq(cases.id, finalVersionBlocks.caseId))
    .where(and(inPeriod, isNotNull(finalVersionBlocks.editRatio)))
    .groupBy(month)
    .orderBy(month);
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
    cases: rows.length,
    stages,
    backlog,
    open: {
      cases: open.length,
      mean_age_days: ages.length === 0 ? null : round(ages.reduce((a, d) => a + d, 0) / ages.length, 1),
      max_age_days: ages.length === 0 ? null : round(Math.max(...ages), 1),
    },
    due: {
      passed: dueOf('passed'),
      due_soon: dueOf('due_soon'),
      later: dueOf('later'),
      no_due_date: open.length - due.length,
      cases: due.slice(0, MAX_DUE_CASES),
    },
    throughput,
    edit_ratio_by_month: monthly.map((r) => ({
      month: r.month,
      blocks: Number(r.n),
      mean: round(Number(r.mean ?? 0)),
    })),
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
