// Where a case stands, from its documents to the chair's final version, and what each agent should do next.
// The next actions name the agent and a tool that agent holds (a test checks each against agents/*.md).

import { countingFact } from '../analysis/agent_facts.ts';
import { findConflicts, groupFacts } from '../analysis/conflicts.ts';
import { and, count, desc, eq, max, sql } from '../db/orm.ts';
import {
  appraisalFacts,
  argumentMaps,
  caseArguments,
  caseReferences,
  claims,
} from '../db/schema/analysis.ts';
import type { CaseRow } from '../db/schema/cases.ts';
import { documents } from '../db/schema/documents.ts';
import { type BlockKind, draftBlocks, draftExports, finalVersions } from '../db/schema/drafting.ts';
import { directions } from '../db/schema/review.ts';
import type { Outcome } from '../db/schema/vocabulary.ts';
import type { DbOrTx } from '../db/types.ts';
import { requiredBlockKinds } from '../drafting/blocks.ts';
import { lastRun } from './runs.ts';

export const workflowStages = [
  'intake',
  'documents',
  'analysis',
  'direction',
  'drafting',
  'validation',
  'export',
  'final',
] as const;
export type WorkflowStage = (typeof workflowStages)[number];

export interface NextAction {
  agent: 'ceo' | 'analyst' | 'researcher' | 'writer' | 'qa';
  tool: string;
  why: string;
}

export interface CaseState {
  documents: { total: number; ready: number; pending: number; failed: number };
  analysis: {
    claims: number;
    confirmed: number;
    candidates: number;
    arguments: number;
    references: number;
    facts: number;
    conflicts: number;
  };
  direction: { proposed: number; approved: { id: string; title: string; outcome: Outcome } | null };
  outcome: Outcome | null;
  blocks: { written: number; missing: BlockKind[]; last_written_at: string | null };
  validation: {
    run_id: string;
    checked_at: string;
    valid: boolean;
    errors: number;
    warnings: number;
    current: boolean;
  } | null;
  export: { export_id: string; at: string; current: boolean } | null;
  final_version: { id: string; at: string } | null;
}

const n = (v: unknown) => Number(v ?? 0);

/** Everything the stage is judged from, in a handful of queries. */
export async function caseState(db: DbOrTx, c: CaseRow): Promise<CaseState> {
  const docs = await db
    .select({ status: documents.status, n: count() })
    .from(documents)
    .where(eq(documents.caseId, c.id))
    .groupBy(documents.status);
  const byStatus = (s: string[]) => docs.filter((d) => s.includes(d.status)).reduce((a, d) => a + n(d.n), 0);
  const claimRows = await db
    .select({ status: claims.status, n: count() })
    .from(claims)
    .where(eq(claims.caseId, c.id))
    .groupBy(claims.status);
  const claimsOf = (s: string) => n(claimRows.find((r) => r.status === s)?.n);
  const [map] = await db
    .select({ id: argumentMaps.id })
    .from(argumentMaps)
    .where(eq(argumentMaps.caseId, c.id))
    .orderBy(desc(argumentMaps.version))
    .limit(1);
  const [args] =
    map === undefined
      ? [{ n: 0 }]
      : await db.select({ n: count() }).from(caseArguments).where(eq(caseArguments.mapId, map.id));
  const [refs] = await db.select({ n: count() }).from(caseReferences).where(eq(caseReferences.caseId, c.id));
  const facts = await db
    .select()
    .from(appraisalFacts)
    .where(and(countingFact, eq(appraisalFacts.caseId, c.id)));
  const dirs = await db.select().from(directions).where(eq(directions.caseId, c.id));
  const approved = dirs.find((d) => d.status === 'approved');
  const latest = await db
    .select({
      key: draftBlocks.key,
      kind: draftBlocks.kind,
      text: draftBlocks.text,
      at: draftBlocks.createdAt,
    })
    .from(draftBlocks)
    .where(
      and(
        eq(draftBlocks.caseId, c.id),
        sql`${draftBlocks.version} = (select max(b.version) from draft_blocks b where b.case_id = ${draftBlocks.caseId} and b.key = ${draftBlocks.key})`,
      ),
    );
  const [lastBlock] = await db
    .select({ at: max(draftBlocks.createdAt) })
    .from(draftBlocks)
    .where(eq(draftBlocks.caseId, c.id));
  const lastBlockAt = lastBlock?.at ?? null;
  const run = await lastRun(db, c.id);
  const [exp] = await db
    .select({ id: draftExports.id, at: draftExports.createdAt })
    .from(draftExports)
    .where(eq(draftExports.caseId, c.id))
    .orderBy(desc(draftExports.createdAt))
    .limit(1);
  const [fin] = await db
    .select({ id: finalVersions.id, at: finalVersions.createdAt })
    .from(finalVersions)
    .where(eq(finalVersions.caseId, c.id))
    .orderBy(desc(finalVersions.createdAt))
    .limit(1);
  const newer = (at: Date) => lastBlockAt === null || at >= lastBlockAt;
  return {
    documents: {
      // A deleted document (document_delete) is counted nowhere.
      total: byStatus(['pending', 'extracting', 'ready', 'failed']),
      ready: byStatus(['ready']),
      pending: byStatus(['pending', 'extracting']),
      failed: byStatus(['failed']),
    },
    analysis: {
      claims: claimRows.reduce((a, r) => a + n(r.n), 0),
      confirmed: claimsOf('confirmed'),
      candidates: claimsOf('candidate'),
      arguments: n(args?.n),
      references: n(refs?.n),
      facts: facts.length,
      conflicts: findConflicts(groupFacts(facts)).length,
    },
    direction: {
      proposed: dirs.length,
      approved:
        approved === undefined ? null : { id: approved.id, title: approved.title, outcome: approved.outcome },
    },
    outcome: c.outcome,
    blocks: {
      written: latest.filter((b) => b.text.trim() !== '').length,
      missing: requiredBlockKinds.filter((k) => !latest.some((b) => b.kind === k && b.text.trim() !== '')),
      last_written_at: lastBlockAt?.toISOString() ?? null,
    },
    validation:
      run === undefined
        ? null
        : {
            run_id: run.id,
            checked_at: run.checkedAt.toISOString(),
            valid: run.errors === 0,
            errors: run.errors,
            warnings: run.warnings,
            current: newer(run.checkedAt),
          },
    export:
      exp === undefined ? null : { export_id: exp.id, at: exp.at.toISOString(), current: newer(exp.at) },
    final_version: fin === undefined ? null : { id: fin.id, at: fin.at.toISOString() },
  };
}

/** The first stage not done, and the actions that move it on. */
export function stageOf(
  c: CaseRow,
  s: CaseState,
): { stage: WorkflowStage; done: WorkflowStage[]; next: NextAction[] } {
  const done: Record<WorkflowStage, boolean> = {
    intake: s.documents.total > 0,
    documents: s.documents.total > 0 && s.documents.pending === 0 && s.documents.failed === 0,
    analysis: s.analysis.confirmed > 0 && s.analysis.arguments > 0,
    direction: s.direction.approved !== null,
    drafting: s.blocks.missing.length === 0 && s.blocks.written > 0,
    validation: s.validation?.valid === true && s.validation.current,
    export: s.export?.current === true,
    final: s.final_version !== null || c.status === 'decided',
  };
  const stage = done.final ? 'final' : (workflowStages.find((st) => !done[st]) ?? 'final');
  const next: NextAction[] = [];
  const add = (agent: NextAction['agent'], tool: string, why: string) => next.push({ agent, tool, why });
  switch (stage) {
    case 'intake':
      add('ceo', 'document_upload', 'Upload the appeal, the responses and the appraisals');
      break;
    case 'documents':
      if (s.documents.pending > 0)
        add('ceo', 'extraction_status', `${s.documents.pending} document(s) still being read`);
      // The same bytes uploaded again are the same document: re-read it, or remove it and upload a readable copy.
      if (s.documents.failed > 0) {
        add(
          'ceo',
          'document_extract',
          `${s.documents.failed} document(s) could not be read: read them again (the reason is in document_list)`,
        );
        add(
          'ceo',
          'document_delete',
          'Or remove a document that cannot be read, then upload a readable copy (text layer, DOCX or text) if needed',
        );
      }
      break;
    case 'analysis':
      if (s.analysis.claims === 0) add('analyst', 'claim_extract', 'Find the parties’ claims');
      if (s.analysis.candidates > 0)
        add('analyst', 'claim_record', `${s.analysis.candidates} candidate claim(s) to confirm or reject`);
      if (s.analysis.arguments === 0)
        add('analyst', 'argument_aggregate', 'Group the confirmed claims into arguments');
      if (s.analysis.facts === 0) add('analyst', 'appraiser_fact_extract', 'Read the appraisers’ figures');
      break;
    case 'direction':
      add('researcher', 'search_library', 'Find the authorities for each argument');
      if (s.direction.proposed === 0) add('ceo', 'direction_propose', 'Propose directions to the owner');
      else add('ceo', 'direction_approve', 'Bring the proposed directions to the owner (owner-gated)');
      break;
    case 'drafting':
      add(
        'writer',
        'block_context_get',
        `Read the context of the missing blocks: ${s.blocks.missing.join(', ') || 'none'}`,
      );
      add('writer', 'block_write', 'Write the missing blocks');
      break;
    case 'validation':
      if (s.validation === null || !s.validation.current)
        add('qa', 'draft_validate', 'Validate the draft as it is now');
      else
        add(
          'writer',
          'block_edit_apply',
          `Fix the ${s.validation.errors} error(s) draft_validate found, then validate again`,
        );
      break;
    case 'export':
      add('writer', 'draft_export', 'Export the validated draft for the chair');
      break;
    case 'final':
      add('ceo', 'feedback_record', 'Record the chair’s remarks on the draft');
      add('qa', 'case_final_text_get', 'Compare the final text with the draft');
      break;
  }
  if (stage === 'export' || (stage === 'final' && s.final_version === null))
    add('ceo', 'final_version_ingest', 'Take in the chair’s signed version (owner-gated)');
  if (s.outcome === null && done.direction)
    add('ceo', 'outcome_set', 'Set the outcome the owner decided (owner-gated)');
  return { stage, done: workflowStages.filter((st) => done[st]), next };
}
