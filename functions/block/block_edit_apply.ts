import * as z from 'zod';
import { caseIdInput } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { invalidArg, ToolError } from '../../src/contract/errors.ts';
import { sha256Hex, stableStringify } from '../../src/contract/hash.ts';
import { and, eq } from '../../src/db/orm.ts';
import { type DraftBlockRow, draftBlocks } from '../../src/db/schema/drafting.ts';
import type { DbOrTx } from '../../src/db/types.ts';
import { addVersion, lockCase } from '../../src/drafting/block_versions.ts';
import { blockKeyInput, MAX_BLOCK_TEXT } from '../../src/drafting/blocks.ts';
import { loadDraftableCase } from '../../src/drafting/draftable_case.ts';
import { blockRefOutput, loadBlock } from '../../src/drafting/store.ts';

const editInput = z
  .strictObject({
    find: z
      .string()
      .min(1)
      .max(MAX_BLOCK_TEXT)
      .optional()
      .describe('The span to replace, exactly as in base_version (once); omit for the whole text'),
    replace: z.string().max(MAX_BLOCK_TEXT).describe('The replacement'),
  })
  .describe('One span replaced, or the whole text');

type Edit = z.output<typeof editInput>;

/** The base text with the edit applied; invalid_args when the span is not there exactly once. */
function applyEdit(base: string, edit: Edit): string {
  if (edit.find === undefined) return edit.replace.trim();
  const at = base.indexOf(edit.find);
  if (at < 0)
    throw invalidArg(
      'edit.find',
      'not in the base version’s text',
      'Quote the span exactly as block_context_get shows it.',
    );
  if (base.indexOf(edit.find, at + 1) >= 0)
    throw invalidArg('edit.find', 'appears more than once', 'Quote a longer span, so that it is found once.');
  return (base.slice(0, at) + edit.replace + base.slice(at + edit.find.length)).trim();
}

async function version(
  tx: DbOrTx,
  caseId: string,
  key: string,
  v: number,
): Promise<DraftBlockRow | undefined> {
  const [row] = await tx
    .select()
    .from(draftBlocks)
    .where(and(eq(draftBlocks.caseId, caseId), eq(draftBlocks.key, key), eq(draftBlocks.version, v)));
  return row;
}

export const block_edit_apply = defineTool({
  name: 'block_edit_apply',
  title: 'Edit part of a block',
  description:
    'Applies an edit to base_version as the block’s next version; if the block moved on, invalid_state ' +
    'names the current version. New claims or citations: block_write.',
  input: {
    case_id: caseIdInput,
    block: blockKeyInput,
    base_version: z.int().min(1).max(1_000_000).describe('The version edited'),
    edit: editInput,
  },
  output: z.object({
    block: blockRefOutput.extend({ created: z.boolean() }),
    base_version: z.int(),
    length: z.int(),
  }),
  mutates: 'write',
  idempotencyKey: {
    describe: 'case_id + block + base_version + the edit',
    of: (i) => `${i.case_id}:${i.block}:${i.base_version}:${sha256Hex(stableStringify(i.edit))}`,
  },
  async run({ ctx, input }) {
    await loadDraftableCase(ctx.db, input.case_id);
    const { row, created } = await ctx.db.transaction(async (tx) => {
      await lockCase(tx, input.case_id);
      const current = await loadBlock(tx, input.case_id, input.block);
      const base = await version(tx, input.case_id, input.block, input.base_version);
      if (base === undefined)
        throw invalidArg('base_version', `block ${input.block} has versions 1 to ${current.version}`);
      const text = applyEdit(base.text, input.edit);
      if (text === '') throw invalidArg('edit.replace', 'the edit leaves the block empty');
      if (current.version !== base.version) {
        // The same edit retried after it was applied: the version right after the base is its result.
        const next = await version(tx, input.case_id, input.block, base.version + 1);
        if (next?.source === 'edit' && next.text === text) return { row: next, created: false };
        throw new ToolError(
          'invalid_state',
          `Block ${input.block} is at version ${current.version}, not ${base.version}: the edit was not applied`,
          {
            details: { block: input.block, base_version: base.version, current_version: current.version },
            hint: `Read version ${current.version} (block_context_get), apply your edit to it, and send base_version ${current.version}.`,
          },
        );
      }
      return addVersion(
        tx,
        input.case_id,
        {
          key: current.key,
          path: 'edit',
          kind: current.kind,
          title: current.title,
          text,
          claimIds: current.claimIds,
          argumentIds: current.argumentIds,
          citations: current.citations,
        },
        ctx.agent,
        'edit',
        ctx.now(),
      );
    });
    return ok(
      {
        block: { key: row.key, kind: row.kind, version: row.version, created },
        base_version: input.base_version,
        length: row.text.length,
      },
      created
        ? `Edited ${row.key}: version ${row.version}`
        : `Already applied: ${row.key} version ${row.version}`,
    );
  },
});
