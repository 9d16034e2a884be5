// Mission criteria the server checks itself: a contract criterion may name a check on a case instead of free
// evidence. hai_proof runs it and records the result; hai_close_mission runs it again before "completed".

import * as z from 'zod';
import { and, desc, eq, max } from '../db/orm.ts';
import { cases } from '../db/schema/cases.ts';
import { draftBlocks, draftExports, finalVersions } from '../db/schema/drafting.ts';
import type { DbOrTx } from '../db/types.ts';
import { lastRun } from './runs.ts';

export const criterionCheckKinds = ['draft_valid', 'exported', 'final_ingested'] as const;
export type CriterionCheckKind = (typeof criterionCheckKinds)[number];

export const criterionCheckInput = z
  .object({ kind: z.enum(criterionCheckKinds), case_id: z.uuid() })
  .describe('Instead of evidence, a check the server runs on the case');
export type CriterionCheck = z.output<typeof criterionCheckInput>;

export interface CheckResult {
  pass: boolean;
  /** What was found, in words, recorded as the evidence. */
  detail: string;
}

/** Runs a criterion's check now. A deleted or unknown case fails it. */
export async function runCheck(db: DbOrTx, check: CriterionCheck): Promise<CheckResult> {
  const [c] = await db.select().from(cases).where(eq(cases.id, check.case_id));
  if (c === undefined || c.deletedAt !== null) return { pass: false, detail: `No case ${check.case_id}` };
  const [last] = await db
    .select({ at: max(draftBlocks.createdAt) })
    .from(draftBlocks)
    .where(eq(draftBlocks.caseId, c.id));
  const lastBlock = last?.at ?? null;
  const afterBlocks = (at: Date) => lastBlock === null || at >= lastBlock;
  switch (check.kind) {
    case 'draft_valid': {
      const run = await lastRun(db, c.id);
      if (run === undefined) return { pass: false, detail: `${c.caseNumber}: the draft was never validated` };
      if (!afterBlocks(run.checkedAt))
        return {
          pass: false,
          detail: `${c.caseNumber}: a block changed after the last validation (${run.id})`,
        };
      return run.errors === 0
        ? {
            pass: true,
            detail: `${c.caseNumber}: validation ${run.id} at ${run.checkedAt.toISOString()} has no errors`,
          }
        : { pass: false, detail: `${c.caseNumber}: validation ${run.id} has ${run.errors} error(s)` };
    }
    case 'exported': {
      const [exp] = await db
        .select()
        .from(draftExports)
        .where(eq(draftExports.caseId, c.id))
        .orderBy(desc(draftExports.createdAt))
        .limit(1);
      if (exp === undefined) return { pass: false, detail: `${c.caseNumber}: never exported` };
      return afterBlocks(exp.createdAt)
        ? {
            pass: true,
            detail: `${c.caseNumber}: export ${exp.id} (sha256 ${exp.sha256}) holds the current blocks`,
          }
        : { pass: false, detail: `${c.caseNumber}: a block changed after the last export (${exp.id})` };
    }
    case 'final_ingested': {
      const [fin] = await db
        .select()
        .from(finalVersions)
        .where(and(eq(finalVersions.caseId, c.id)))
        .orderBy(desc(finalVersions.createdAt))
        .limit(1);
      return fin === undefined
        ? { pass: false, detail: `${c.caseNumber}: no final version taken in` }
        : { pass: true, detail: `${c.caseNumber}: final version ${fin.id} (sha256 ${fin.sha256}) taken in` };
    }
  }
}
