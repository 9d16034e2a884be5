// block_write and block_edit_apply's common half: checking what a block answers (claims and arguments of the
// case) and adding a version in a transaction that holds the case row, so a case's versions are written one
// after another and a repeat of the current content is a replay.

import { invalidArgs, one, ToolError } from '../contract/errors.ts';
import { and, eq, inArray } from '../db/orm.ts';
import { argumentMaps, caseArguments, claims } from '../db/schema/analysis.ts';
import { cases } from '../db/schema/cases.ts';
import { type DraftBlockRow, draftBlocks } from '../db/schema/drafting.ts';
import type { DbOrTx } from '../db/types.ts';
import { type BlockContent, blockContentHash } from './blocks.ts';
import { currentBlock } from './store.ts';

export interface BlockWrite extends BlockContent {
  key: string;
  /** Where the block sits in the call's input, for error paths ("blocks.2"). */
  path: string;
}

/** Locks the case row: a case's block versions are then written one call after another. */
export async function lockCase(tx: DbOrTx, caseId: string): Promise<void> {
  await tx.select({ id: cases.id }).from(cases).where(eq(cases.id, caseId)).for('update');
}

/** Refuses claim and argument ids that are not the case's (invalid_args naming each). */
export async function checkRefs(tx: DbOrTx, caseId: string, writes: readonly BlockWrite[]): Promise<void> {
  const claimIds = [...new Set(writes.flatMap((w) => w.claimIds))];
  const argumentIds = [...new Set(writes.flatMap((w) => w.argumentIds))];
  const okClaims = new Set(
    claimIds.length === 0
      ? []
      : (
          await tx
            .select({ id: claims.id })
            .from(claims)
            .where(and(eq(claims.caseId, caseId), inArray(claims.id, claimIds)))
        ).map((r) => r.id),
  );
  const okArgs = new Set(
    argumentIds.length === 0
      ? []
      : (
          await tx
            .select({ id: caseArguments.id })
            .from(caseArguments)
            .innerJoin(argumentMaps, eq(argumentMaps.id, caseArguments.mapId))
            .where(and(eq(argumentMaps.caseId, caseId), inArray(caseArguments.id, argumentIds)))
        ).map((r) => r.id),
  );
  const issues = writes.flatMap((w) => [
    ...w.claimIds
      .filter((id) => !okClaims.has(id))
      .map((id) => ({ path: `${w.path}.claim_ids`, message: `${id} is not a claim of this case` })),
    ...w.argumentIds
      .filter((id) => !okArgs.has(id))
      .map((id) => ({ path: `${w.path}.argument_ids`, message: `${id} is not an argument of this case` })),
  ]);
  if (issues.length > 0)
    throw invalidArgs(issues, 'claim_list and argument_list give the case’s claim and argument ids.');
}

/**
 * Adds the block's next version, or returns the current one when its content is the same (created false).
 * A key already used by another kind is refused.
 */
export async function addVersion(
  tx: DbOrTx,
  caseId: string,
  w: BlockWrite,
  author: string,
  source: 'write' | 'edit',
  now: Date,
): Promise<{ row: DraftBlockRow; created: boolean }> {
  const current = await currentBlock(tx, caseId, w.key);
  if (current !== undefined && current.kind !== w.kind) {
    throw new ToolError('invalid_args', `Block ${w.key} is a ${current.kind} block, not ${w.kind}`, {
      details: { issues: [{ path: `${w.path}.kind`, message: `block ${w.key} is ${current.kind}` }] },
      hint: 'Give another key for a new block, or the block’s own kind.',
    });
  }
  const hash = blockContentHash(w);
  if (current?.contentHash === hash) return { row: current, created: false };
  const row = one(
    await tx
      .insert(draftBlocks)
      .values({
        id: crypto.randomUUID(),
        caseId,
        key: w.key,
        kind: w.kind,
        version: (current?.version ?? 0) + 1,
        title: w.title,
        text: w.text,
        claimIds: [...w.claimIds],
        argumentIds: [...w.argumentIds],
        citations: [...w.citations],
        contentHash: hash,
        source,
        author,
        createdAt: now,
      })
      .returning(),
    'block insert',
  );
  return { row, created: true };
}
