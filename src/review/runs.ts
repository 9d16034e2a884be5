// Stored results of draft_validate: the same target in the same state with the same result is one row whose
// checked_at moves forward, so the latest row is always the last check.

import * as z from 'zod';
import { writtenOrExisting } from '../contract/durable.ts';
import { sha256Hex, stableStringify } from '../contract/hash.ts';
import { and, desc, eq } from '../db/orm.ts';
import { validationRuns } from '../db/schema/review.ts';
import type { DbOrTx } from '../db/types.ts';
import {
  citationCheckOutput,
  findingOutput,
  fixFor,
  MAX_CITATIONS_CHECKED,
  MAX_FINDINGS,
  MAX_NOT_CHECKED,
  MAX_QUOTES_CHECKED,
  notCheckedOutput,
  quoteCheckOutput,
} from './findings.ts';
import type { ValidationResult } from './validate.ts';

export type RunRow = typeof validationRuns.$inferSelect;

export const validationOutput = z.object({
  run_id: z.uuid(),
  case_id: z.uuid(),
  target: z.string().describe('"draft", or the id of the document checked'),
  checked_at: z.iso.datetime(),
  valid: z.boolean().describe('true when no finding is an error'),
  errors: z.int(),
  warnings: z.int(),
  notes: z.int().describe('Style notes (asked for with style_notes): never errors, never decide validity'),
  findings: z.array(findingOutput).max(MAX_FINDINGS),
  findings_total: z.int().describe('All findings; past the list’s cap see the stored run'),
  citations: z.array(citationCheckOutput).max(MAX_CITATIONS_CHECKED),
  quotes: z.array(quoteCheckOutput).max(MAX_QUOTES_CHECKED),
  could_not_check: z
    .array(notCheckedOutput)
    .max(MAX_NOT_CHECKED)
    .describe('What a cap or a missing text left unchecked'),
  created: z.boolean().describe('false when the same result was stored before (its check time moves)'),
});
export type ValidationView = z.output<typeof validationOutput>;

/** Stores a result: a new row, or the same result's row with checked_at now. */
export async function storeRun(
  db: DbOrTx,
  r: { caseId: string; target: string; state: unknown; result: ValidationResult; agent: string; now: Date },
): Promise<{ row: RunRow; created: boolean }> {
  const errors = r.result.findings.filter((f) => f.severity === 'error').length;
  const warnings = r.result.findings.filter((f) => f.severity === 'warning').length;
  const stored = {
    findings: r.result.findings,
    citations: r.result.citations,
    quotes: r.result.quotes,
    could_not_check: r.result.notChecked.slice(0, MAX_NOT_CHECKED),
  };
  const resultHash = sha256Hex(stableStringify({ state: r.state, ...stored }));
  const { row, written } = await writtenOrExisting(
    db
      .insert(validationRuns)
      .values({
        id: crypto.randomUUID(),
        caseId: r.caseId,
        target: r.target,
        resultHash,
        errors,
        warnings,
        couldNotCheck:
          r.result.notChecked.length +
          r.result.citations.filter((c) => c.verdict === 'could_not_check').length,
        result: stored,
        createdBy: r.agent,
        createdAt: r.now,
        checkedAt: r.now,
      })
      .onConflictDoNothing()
      .returning(),
    // The same result again: only when it was last checked changes.
    () =>
      db
        .update(validationRuns)
        .set({ checkedAt: r.now })
        .where(
          and(
            eq(validationRuns.caseId, r.caseId),
            eq(validationRuns.target, r.target),
            eq(validationRuns.resultHash, resultHash),
          ),
        )
        .returning(),
    'the stored validation',
  );
  return { row, created: written };
}

export function runView(row: RunRow, created: boolean): ValidationView {
  const stored = row.result as {
    findings: ValidationView['findings'];
    citations: ValidationView['citations'];
    quotes: ValidationView['quotes'];
    could_not_check: ValidationView['could_not_check'];
  };
  return {
    run_id: row.id,
    case_id: row.caseId,
    target: row.target,
    checked_at: row.checkedAt.toISOString(),
    valid: row.errors === 0,
    errors: row.errors,
    warnings: row.warnings,
    notes: stored.findings.filter((f) => f.severity === 'note').length,
    // A run stored before findings named their block kind and fix: the code's advice.
    findings: stored.findings
      .slice(0, MAX_FINDINGS)
      .map((f) => ({ ...f, block_kind: f.block_kind ?? null, fix: f.fix ?? fixFor(f.code) })),
    findings_total: stored.findings.length,
    citations: stored.citations,
    quotes: stored.quotes,
    could_not_check: stored.could_not_check,
    created,
  };
}

/** The last check of a case's target ('draft' by default). */
export async function lastRun(db: DbOrTx, caseId: string, target = 'draft'): Promise<RunRow | undefined> {
  const [row] = await db
    .select()
    .from(validationRuns)
    .where(and(eq(validationRuns.caseId, caseId), eq(validationRuns.target, target)))
    .orderBy(desc(validationRuns.checkedAt))
    .limit(1);
  return row;
}
