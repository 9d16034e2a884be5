// The draft family's view of an export: its blocks and anchors, as draft_export and draft_bookmark_list return them.

import * as z from 'zod';
import { loadLiveCase } from '../cases/live.ts';
import { ToolError } from '../contract/errors.ts';
import { and, desc, eq } from '../db/orm.ts';
import { type DraftExportRow, draftExports } from '../db/schema/drafting.ts';
import type { Db } from '../db/types.ts';
import { bookmarkName, sdtTag } from './anchors.ts';

export const MAX_EXPORT_BLOCKS = 500;

export const anchorOutput = z.object({
  key: z.string(),
  kind: z.string(),
  version: z.int(),
  tag: z.string().describe('kind|key|version'),
  bookmark: z.string(),
  text_hash: z.string().describe('SHA-256 of the exported text'),
  paragraphs: z.int(),
});

export const anchorsOf = (row: DraftExportRow) =>
  row.blocks.map((b, i) => ({
    key: b.key,
    kind: b.kind,
    version: b.version,
    tag: sdtTag(b.kind, b.key, b.version),
    bookmark: bookmarkName(i),
    text_hash: b.text_hash,
    paragraphs: b.paragraphs,
  }));

/** An export by id, of a live case (C7); not_found otherwise. */
export async function loadExport(db: Db, id: string): Promise<DraftExportRow> {
  const [row] = await db.select().from(draftExports).where(eq(draftExports.id, id));
  if (row !== undefined) {
    await loadLiveCase(db, row.caseId);
    return row;
  }
  throw new ToolError('not_found', `No export ${id}`, {
    details: { export_id: id },
    hint: 'draft_export makes one; draft_bookmark_list with the case_id shows the latest.',
  });
}

/** The case's latest export, or undefined. */
export async function latestExport(db: Db, caseId: string): Promise<DraftExportRow | undefined> {
  const [row] = await db
    .select()
    .from(draftExports)
    .where(and(eq(draftExports.caseId, caseId)))
    .orderBy(desc(draftExports.createdAt), desc(draftExports.id))
    .limit(1);
  return row;
}
