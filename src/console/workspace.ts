// What the chair's case page and case list read (reads change nothing; every change goes through a tool,
// src/console/act.ts). Each part comes from its one home: the draft from src/drafting/ (the export's numbering),
// the stage from src/review/workflow.ts (as workflow_status judges it), the validation from src/review/runs.ts,
// the directions, holdings, exports, final version and feedback from their tables as their tools read them.
import { liveCase } from '../cases/live.ts';
import { type Deadline, datesView, deadlineOf, loadDates, localDay } from '../cases/schedule.ts';
import { and, asc, desc, eq, inArray, isNull, max } from '../db/orm.ts';
import { type CaseRow, cases } from '../db/schema/cases.ts';
import { documents } from '../db/schema/documents.ts';
import { draftBlocks, draftExports, finalVersionBlocks, finalVersions } from '../db/schema/drafting.ts';
import { casePrecedents, holdings } from '../db/schema/holdings.ts';
import type { OwnerApprovalRow } from '../db/schema/owners.ts';
import { chairFeedback, directions } from '../db/schema/review.ts';
import type { Db } from '../db/types.ts';
import { type AssembledDraft, assemble } from '../drafting/assemble.ts';
import { currentBlocks } from '../drafting/store.ts';
import type { HoldingDocument, HoldingRow } from '../halacha/views.ts';
import { approvalsIn } from '../owner/approvals.ts';
import type { DirectionRow } from '../review/directions.ts';
import type { FeedbackRow } from '../review/feedback.ts';
import { lastRun, runView, type ValidationView } from '../review/runs.ts';
import { caseState, stageOf, type WorkflowStage } from '../review/workflow.ts';
import { LIST_LIMIT } from './queries.ts';

export interface CaseHolding {
  holding: HoldingRow;
  document: HoldingDocument;
}

export interface ExportEntry {
  id: string;
  sha256: string;
  byteSize: number;
  blocks: number;
  createdBy: string;
  createdAt: Date;
}

export interface FinalEntry {
  version: typeof finalVersions.$inferSelect;
  blocks: (typeof finalVersionBlocks.$inferSelect)[];
}

export interface Workspace {
  stage: WorkflowStage;
  draft: AssembledDraft;
  /** The latest check of the draft, and whether blocks changed after it. */
  validation: { view: ValidationView; current: boolean } | null;
  directions: DirectionRow[];
  holdings: CaseHolding[];
  exports: ExportEntry[];
  final: FinalEntry | null;
  feedback: FeedbackRow[];
  pending: OwnerApprovalRow[];
}

/**
 * The documents whose holdings matter to a case: the sources its draft's citations resolved to in the latest
 * check, and the rulings pinned to its sections (precedent_attach).
 */
async function sourcesOf(db: Db, caseId: string, view: ValidationView | null): Promise<string[]> {
  const cited = (view?.citations ?? []).flatMap((c) => (c.source === null ? [] : [c.source.document_id]));
  const pinned = await db
    .select({ id: casePrecedents.documentId })
    .from(casePrecedents)
    .where(and(eq(casePrecedents.caseId, caseId), isNull(casePrecedents.detachedAt)))
    .limit(LIST_LIMIT);
  return [...new Set([...cited, ...pinned.flatMap((p) => (p.id === null ? [] : [p.id]))])];
}

/** The holdings of the case's sources: those awaiting review first, then those decided. */
async function holdingsOf(db: Db, sources: readonly string[]): Promise<CaseHolding[]> {
  if (sources.length === 0) return [];
  const rows = await db
    .select({
      holding: holdings,
      document: {
        id: documents.id,
        corpus: documents.corpus,
        title: documents.title,
        number: documents.number,
      },
    })
    .from(holdings)
    .innerJoin(documents, eq(documents.id, holdings.documentId))
    .where(inArray(holdings.documentId, [...sources]))
    .orderBy(asc(holdings.seq))
    .limit(LIST_LIMIT);
  const rank = (h: HoldingRow) => (h.status === 'pending' ? 0 : 1);
  return rows.sort((a, b) => rank(a.holding) - rank(b.holding));
}

/** The pending requests that concern a case: by its id, one of its directions, or a holding of its sources. */
export function concerning(
  pending: readonly OwnerApprovalRow[],
  caseId: string,
  directionIds: ReadonlySet<string>,
  holdingIds: ReadonlySet<string>,
): OwnerApprovalRow[] {
  return pending.filter((r) => {
    const a = r.args;
    return (
      a.case_id === caseId ||
      (typeof a.direction_id === 'string' && directionIds.has(a.direction_id)) ||
      (typeof a.halacha_id === 'string' && holdingIds.has(a.halacha_id))
    );
  });
}

export async function caseWorkspace(db: Db, row: CaseRow): Promise<Workspace> {
  const { stage } = stageOf(row, await caseState(db, row));
  const draft = assemble(await currentBlocks(db, row.id));
  const run = await lastRun(db, row.id);
  const [lastBlock] = await db
    .select({ at: max(draftBlocks.createdAt) })
    .from(draftBlocks)
    .where(eq(draftBlocks.caseId, row.id));
  const view = run === undefined ? null : runView(run, false);
  const dirs = await db
    .select()
    .from(directions)
    .where(eq(directions.caseId, row.id))
    .orderBy(desc(directions.createdAt))
    .limit(LIST_LIMIT);
  const held = await holdingsOf(db, await sourcesOf(db, row.id, view));
  const exps = await db
    .select({
      id: draftExports.id,
      sha256: draftExports.sha256,
      byteSize: draftExports.byteSize,
      blocks: draftExports.blocks,
      createdBy: draftExports.createdBy,
      createdAt: draftExports.createdAt,
    })
    .from(draftExports)
    .where(eq(draftExports.caseId, row.id))
    .orderBy(desc(draftExports.createdAt), desc(draftExports.id))
    .limit(LIST_LIMIT);
  const [fin] = await db
    .select()
    .from(finalVersions)
    .where(eq(finalVersions.caseId, row.id))
    .orderBy(desc(finalVersions.createdAt))
    .limit(1);
  // In the export's order (the order the file was read in), as final_version_ingest reports them.
  const order = new Map<string, number>();
  if (fin?.exportId != null) {
    const [exp] = await db
      .select({ blocks: draftExports.blocks })
      .from(draftExports)
      .where(eq(draftExports.id, fin.exportId));
    for (const [i, b] of (exp?.blocks ?? []).entries()) order.set(b.key, i);
  }
  const finBlocks = (
    fin === undefined
      ? []
      : await db.select().from(finalVersionBlocks).where(eq(finalVersionBlocks.finalId, fin.id))
  ).sort((a, b) => (order.get(a.key) ?? 0) - (order.get(b.key) ?? 0));
  const feedback = await db
    .select()
    .from(chairFeedback)
    .where(eq(chairFeedback.caseId, row.id))
    .orderBy(asc(chairFeedback.seq))
    .limit(LIST_LIMIT);
  const pending = concerning(
    await approvalsIn(db, ['pending']),
    row.id,
    new Set(dirs.map((d) => d.id)),
    new Set(held.map((h) => h.holding.id)),
  );
  return {
    stage,
    draft,
    validation:
      view === null || run === undefined
        ? null
        : {
            view,
            current: (lastBlock?.at ?? null) === null || run.checkedAt >= (lastBlock?.at ?? run.checkedAt),
          },
    directions: dirs,
    holdings: held,
    exports: exps.map((e) => ({ ...e, blocks: e.blocks.length })),
    final: fin === undefined ? null : { version: fin, blocks: finBlocks },
    feedback,
    pending,
  };
}

export interface CaseListRow {
  id: string;
  caseNumber: string;
  title: string;
  stage: WorkflowStage;
  outcome: CaseRow['outcome'];
  updatedAt: Date;
  /** Requests about this case waiting for the chair's decision. */
  approvals: number;
  /** Proposed directions not yet approved. */
  directions: number;
  /** Holdings of the case's sources awaiting review. */
  holdings: number;
  /** The case's due date, once cases carry one; null renders nothing. */
  /** The decision's due date and how near it is (as workflow_status warns of it), or null. */
  due: Deadline;
}

/** The live cases with their stage (as workflow_status judges it) and what waits for the chair in each. */
export async function caseListWithStage(db: Db, now: Date): Promise<CaseListRow[]> {
  const rows = await db.select().from(cases).where(liveCase).orderBy(desc(cases.updatedAt)).limit(LIST_LIMIT);
  const pending = await approvalsIn(db, ['pending']);
  const out: CaseListRow[] = [];
  for (const row of rows) {
    const { stage } = stageOf(row, await caseState(db, row));
    const dirs = await db
      .select({ id: directions.id, status: directions.status })
      .from(directions)
      .where(eq(directions.caseId, row.id));
    const run = await lastRun(db, row.id);
    const held = await holdingsOf(
      db,
      await sourcesOf(db, row.id, run === undefined ? null : runView(run, false)),
    );
    const waiting = held.filter((h) => h.holding.status === 'pending');
    out.push({
      id: row.id,
      caseNumber: row.caseNumber,
      title: row.title,
      stage,
      outcome: row.outcome,
      updatedAt: row.updatedAt,
      approvals: concerning(
        pending,
        row.id,
        new Set(dirs.map((d) => d.id)),
        new Set(held.map((h) => h.holding.id)),
      ).length,
      directions: dirs.filter((d) => d.status === 'proposed').length,
      holdings: waiting.length,
      due: deadlineOf(
        datesView(await loadDates(db, row.id)).decision_due_date,
        localDay(now),
        stage === 'final',
      ),
    });
  }
  return out;
}

/** The holdings awaiting review anywhere (the home page's count). */
export async function pendingHoldingCount(db: Db): Promise<number> {
  const rows = await db
    .select({ id: holdings.id })
    .from(holdings)
    .where(eq(holdings.status, 'pending'))
    .limit(LIST_LIMIT + 1);
  return rows.length;
}
