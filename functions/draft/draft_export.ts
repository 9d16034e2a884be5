import * as z from 'zod';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { ToolError } from '../../src/contract/errors.ts';
import { and, eq } from '../../src/db/orm.ts';
import { blockKinds, type DraftExportRow, draftExports } from '../../src/db/schema/drafting.ts';
import { jobs } from '../../src/db/schema/jobs.ts';
import { assemble } from '../../src/drafting/assemble.ts';
import {
  DRAFT_EXPORT,
  enqueueExport,
  exportBlocksHash,
  exportSubject,
} from '../../src/drafting/export_job.ts';
import { anchorOutput, anchorsOf, MAX_EXPORT_BLOCKS } from '../../src/drafting/exports.ts';
import { currentBlocks } from '../../src/drafting/store.ts';

/** The file is returned inline up to this size (base64 is 4/3 of it, under the response body cap). */
export const MAX_INLINE_BYTES = 700 * 1024;
const MAX_WAIT_MS = 20_000;
const DEFAULT_WAIT_MS = 15_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const toBase64 = (bytes: Uint8Array) => {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
};

export const draft_export = defineTool({
  name: 'draft_export',
  title: 'Word export',
  description:
    'The draft as a Hebrew Word file (RTL, numbered, authorities appendix, blocks anchored), stored with ' +
    'its SHA-256, in base64. Same block versions, same export.',
  input: {
    case_id: caseIdInput,
    wait_ms: z
      .int()
      .min(0)
      .max(MAX_WAIT_MS)
      .optional()
      .describe(`Wait for the file (default ${DEFAULT_WAIT_MS} ms)`),
  },
  output: z.object({
    export_id: z.uuid(),
    sha256: z.string(),
    byte_size: z.int(),
    content_base64: z.string().nullable().describe(`The DOCX; null when over ${MAX_INLINE_BYTES} bytes`),
    blocks: z.array(anchorOutput).max(MAX_EXPORT_BLOCKS),
    missing: z.array(z.enum(blockKinds)).max(blockKinds.length).describe('Placeholders'),
  }),
  mutates: 'write',
  // The export is a function of the current block versions: a later call after a change is another export,
  // so the request layer must not replay a stored answer.
  setSemantics: true,
  idempotencyKey: {
    describe: 'case_id + the current block versions (the same versions: the same export)',
    of: (i) => i.case_id,
  },
  async run({ ctx, input }) {
    const row = await loadLiveCase(ctx.db, input.case_id);
    const blocks = await currentBlocks(ctx.db, input.case_id);
    if (blocks.length === 0) {
      throw new ToolError('invalid_state', `Case ${row.caseNumber} has no blocks to export`, {
        details: { case_id: row.id },
        hint: 'Write the decision’s blocks first (block_write).',
      });
    }
    const key = { ...(await exportSubject(ctx.db, row)), blocks };
    const blocksHash = exportBlocksHash(key);
    const find = async (): Promise<DraftExportRow | undefined> =>
      (
        await ctx.db
          .select()
          .from(draftExports)
          .where(and(eq(draftExports.caseId, row.id), eq(draftExports.blocksHash, blocksHash)))
      )[0];
    let found = await find();
    if (found === undefined) {
      const job = await ctx.db.transaction((tx) => enqueueExport(tx, key, blocksHash, ctx.agent));
      ctx.jobs.kick();
      const deadline = Date.now() + (input.wait_ms ?? DEFAULT_WAIT_MS);
      for (;;) {
        found = await find();
        if (found !== undefined || Date.now() >= deadline) break;
        const report = ctx.jobs.kinds.includes(DRAFT_EXPORT)
          ? await ctx.jobs.drain({ kinds: [DRAFT_EXPORT], maxJobs: 2 })
          : { claimed: 0 };
        if (report.claimed === 0) await sleep(Math.max(0, Math.min(50, deadline - Date.now())));
      }
      if (found === undefined) {
        const [state] = await ctx.db
          .select({ state: jobs.state, error: jobs.lastError })
          .from(jobs)
          .where(eq(jobs.id, job.id));
        throw new ToolError('in_progress', 'The Word file is still being written', {
          details: {
            case_id: row.id,
            job_id: job.id,
            state: state?.state ?? null,
            error: state?.error ?? null,
          },
          hint: 'Call draft_export again with the same case: it returns the file once written.',
        });
      }
    }
    const inline = found.byteSize <= MAX_INLINE_BYTES;
    const { missing } = assemble(blocks);
    return ok(
      {
        export_id: found.id,
        sha256: found.sha256,
        byte_size: found.byteSize,
        content_base64: inline ? toBase64(found.content) : null,
        blocks: anchorsOf(found).slice(0, MAX_EXPORT_BLOCKS),
        missing,
      },
      `Export ${found.id}: ${found.blocks.length} block(s), ${found.byteSize} bytes${missing.length > 0 ? `; an interim draft (${missing.join(', ')} missing)` : ''}${inline ? '' : '; too large to return inline'}`,
    );
  },
});
