// Reading a case's draft: the current version of each block, in the decision's order (kinds in their order;
// blocks of one kind, such as several discussions, in the order they were first written).

import * as z from 'zod';
import { ToolError } from '../contract/errors.ts';
import { and, asc, desc, eq, min, sql } from '../db/orm.ts';
import { type BlockKind, blockKinds, type DraftBlockRow, draftBlocks } from '../db/schema/drafting.ts';
import type { Db, DbOrTx } from '../db/types.ts';
import { kindOrder, requiredBlockKinds } from './blocks.ts';

export interface CurrentBlock extends DraftBlockRow {
  /** The seq of the block's first version: its place among blocks of its kind. */
  firstSeq: number;
}

/** The current version of every block of a case, in decision order. */
export async function currentBlocks(db: Db | DbOrTx, caseId: string): Promise<CurrentBlock[]> {
  const latest = await db
    .selectDistinctOn([draftBlocks.key])
    .from(draftBlocks)
    .where(eq(draftBlocks.caseId, caseId))
    .orderBy(draftBlocks.key, desc(draftBlocks.version));
  const firsts = await db
    .select({ key: draftBlocks.key, first: min(draftBlocks.seq) })
    .from(draftBlocks)
    .where(eq(draftBlocks.caseId, caseId))
    .groupBy(draftBlocks.key);
  const firstOf = new Map(firsts.map((f) => [f.key, Number(f.first ?? 0)]));
  return latest
    .map((row) => ({ ...row, firstSeq: firstOf.get(row.key) ?? 0 }))
    .sort((a, b) => kindOrder(a.kind) - kindOrder(b.kind) || a.firstSeq - b.firstSeq);
}

/** The current version of one block, or undefined when it was never written. */
export async function currentBlock(
  db: Db | DbOrTx,
  caseId: string,
  key: string,
): Promise<DraftBlockRow | undefined> {
  const [row] = await db
    .select()
    .from(draftBlocks)
    .where(and(eq(draftBlocks.caseId, caseId), eq(draftBlocks.key, key)))
    .orderBy(desc(draftBlocks.version))
    .limit(1);
  return row;
}

/** One block's current version; not_found naming the blocks the case has when it was never written. */
export async function loadBlock(db: Db | DbOrTx, caseId: string, key: string): Promise<DraftBlockRow> {
  const row = await currentBlock(db, caseId, key);
  if (row !== undefined) return row;
  const keys = await db
    .selectDistinct({ key: draftBlocks.key })
    .from(draftBlocks)
    .where(eq(draftBlocks.caseId, caseId))
    .orderBy(asc(draftBlocks.key))
    .limit(50);
  throw new ToolError('not_found', `The case has no block ${key}`, {
    details: { case_id: caseId, block: key, blocks: keys.map((k) => k.key) },
    hint: 'block_list lists the blocks written; block_write writes a new one.',
  });
}

/** Required kinds that have no block with text yet. */
export const missingRequired = (blocks: readonly { kind: BlockKind; text: string }[]): BlockKind[] =>
  requiredBlockKinds.filter((k) => !blocks.some((b) => b.kind === k && b.text.trim() !== ''));

/** The number of versions a case's blocks have, for a block list's counts. */
export async function versionCounts(db: Db | DbOrTx, caseId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ key: draftBlocks.key, n: sql<number>`count(*)::int` })
    .from(draftBlocks)
    .where(eq(draftBlocks.caseId, caseId))
    .groupBy(draftBlocks.key);
  return new Map(rows.map((r) => [r.key, Number(r.n)]));
}

export const blockKindInput = z.enum(blockKinds);

export const blockRefOutput = z.object({
  key: z.string(),
  kind: blockKindInput,
  version: z.int(),
});
