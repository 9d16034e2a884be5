// The export job: the DOCX of one set of block versions, rendered where the docx library is (the extraction
// Worker, or Node) and stored once per (case, block versions). draft_export queues it and waits for it.

import * as z from 'zod';
import { loadPanel, type SignatureLine, signatureLines } from '../cases/schedule.ts';
import { sha256Hex, stableStringify } from '../contract/hash.ts';
import { and, eq } from '../db/orm.ts';
import { cases } from '../db/schema/cases.ts';
import { type DraftBlockRow, draftBlocks, draftExports } from '../db/schema/drafting.ts';
import type { DbOrTx } from '../db/types.ts';
import { enqueueJob, type JobHandler, PermanentJobError } from '../jobs/queue.ts';
import { assemble } from './assemble.ts';

export const DRAFT_EXPORT = 'draft_export';
/** Part of every export's key: a change to the rendering makes new exports of the same versions. */
export const RENDERER_VERSION = 'docx-2';

const payloadSchema = z.object({
  case_id: z.uuid(),
  blocks_hash: z.string(),
  blocks: z.array(z.object({ key: z.string(), version: z.int() })),
  agent: z.string(),
});

export interface ExportKey {
  caseId: string;
  caseNumber: string;
  /** The case's title (in the file's properties). */
  caseTitle: string;
  /** The panel's signature lines (case_panel_set), printed under the signature block. */
  signers: readonly SignatureLine[];
  blocks: readonly { key: string; version: number }[];
}

/** What an export of a case is rendered from besides its blocks: its title and its panel's signature lines. */
export async function exportSubject(db: DbOrTx, c: { id: string; caseNumber: string; title: string }) {
  return {
    caseId: c.id,
    caseNumber: c.caseNumber,
    caseTitle: c.title,
    signers: signatureLines(await loadPanel(db, c.id)),
  };
}

/** The key of an export: the renderer, the case number, title and signers, and the block versions in order. */
export const exportBlocksHash = (k: ExportKey): string =>
  sha256Hex(
    stableStringify({
      renderer: RENDERER_VERSION,
      case_number: k.caseNumber,
      case_title: k.caseTitle,
      signers: k.signers.map((s) => [s.name, s.title]),
      blocks: k.blocks.map((b) => [b.key, b.version]),
    }),
  );

/** Queues the export of these block versions (once per case and versions); returns the job id. */
export async function enqueueExport(tx: DbOrTx, k: ExportKey, blocksHash: string, agent: string) {
  return enqueueJob(tx, {
    kind: DRAFT_EXPORT,
    dedupeKey: `${k.caseId}:${blocksHash}`,
    subject: k.caseId,
    payload: {
      case_id: k.caseId,
      blocks_hash: blocksHash,
      blocks: k.blocks.map((b) => ({ key: b.key, version: b.version })),
      agent,
    },
    reviveDead: true,
  });
}

export const draftExportJob: JobHandler = async (job, jctx) => {
  const p = payloadSchema.parse(job.payload);
  const [row] = await jctx.db.select().from(cases).where(eq(cases.id, p.case_id));
  if (row === undefined || row.deletedAt !== null) throw new PermanentJobError(`case ${p.case_id} is gone`);
  const rows: DraftBlockRow[] = [];
  for (const b of p.blocks) {
    const [r] = await jctx.db
      .select()
      .from(draftBlocks)
      .where(
        and(
          eq(draftBlocks.caseId, p.case_id),
          eq(draftBlocks.key, b.key),
          eq(draftBlocks.version, b.version),
        ),
      );
    if (r === undefined) throw new PermanentJobError(`block ${b.key} v${b.version} is gone`);
    rows.push(r);
  }
  // The docx library is loaded on the first export, not at start-up.
  const { renderDocx } = await import('./docx_writer.ts');
  // The panel as it is now: a change since the call made another key, and so another export.
  const subject = await exportSubject(jctx.db, row);
  const { bytes, blocks } = await renderDocx(assemble(rows), {
    caseId: p.case_id,
    caseNumber: row.caseNumber,
    blocksHash: p.blocks_hash,
    caseTitle: subject.caseTitle,
    signers: subject.signers,
  });
  await jctx.db
    .insert(draftExports)
    .values({
      id: crypto.randomUUID(),
      caseId: p.case_id,
      blocksHash: p.blocks_hash,
      sha256: sha256Hex(bytes),
      byteSize: bytes.byteLength,
      content: bytes,
      blocks,
      createdBy: p.agent,
      createdAt: jctx.now(),
    })
    .onConflictDoNothing();
};
