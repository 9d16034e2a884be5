import * as z from 'zod';
import { caseIdInput } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { invalidArgs } from '../../src/contract/errors.ts';
import { sha256Hex } from '../../src/contract/hash.ts';
import { and, eq } from '../../src/db/orm.ts';
import { cases } from '../../src/db/schema/cases.ts';
import { blockKinds } from '../../src/db/schema/drafting.ts';
import { addVersion, type BlockWrite, checkRefs, lockCase } from '../../src/drafting/block_versions.ts';
import {
  blockContentHash,
  blockKeyInput,
  citationInput,
  MAX_BLOCK_REFS,
  MAX_BLOCK_TEXT,
  MAX_CITATIONS,
} from '../../src/drafting/blocks.ts';
import { loadDraftableCase } from '../../src/drafting/draftable_case.ts';
import { blockRefOutput } from '../../src/drafting/store.ts';

export const MAX_BLOCKS_PER_WRITE = 50;

const blockInput = z.strictObject({
  kind: z.enum(blockKinds),
  key: blockKeyInput.optional().describe('Default: the kind; "discussion:<topic>"'),
  title: z.string().trim().min(1).max(300).optional().describe('Discussions only'),
  text: z.string().trim().min(1).max(MAX_BLOCK_TEXT).describe('One paragraph per line'),
  claim_ids: z.array(z.uuid()).max(MAX_BLOCK_REFS).optional().describe('Claims this block answers'),
  argument_ids: z.array(z.uuid()).max(MAX_BLOCK_REFS).optional().describe('Arguments it answers'),
  citations: z.array(citationInput).max(MAX_CITATIONS).optional(),
});

type BlockInput = z.output<typeof blockInput>;

const toWrite = (b: BlockInput, i: number): BlockWrite => ({
  key: b.key ?? b.kind,
  path: `blocks.${i}`,
  kind: b.kind,
  title: b.title ?? null,
  text: b.text,
  claimIds: b.claim_ids ?? [],
  argumentIds: b.argument_ids ?? [],
  citations: b.citations ?? [],
});

export const block_write = defineTool({
  name: 'block_write',
  title: 'Write decision blocks',
  description:
    'Writes one or many decision blocks in one transaction, each a new version (the current content again ' +
    'is none), with the claims and arguments it answers and its citations. Part of a block: block_edit_apply.',
  input: {
    case_id: caseIdInput,
    blocks: z.array(blockInput).min(1).max(MAX_BLOCKS_PER_WRITE).describe('The blocks to write'),
  },
  output: z.object({
    blocks: z
      .array(blockRefOutput.extend({ created: z.boolean().describe('false: already the current content') }))
      .max(MAX_BLOCKS_PER_WRITE),
  }),
  mutates: 'write',
  // A repeat of the current content is a replay by itself; an older content again is a new version, so the
  // request layer must not replay a stored answer (A, B, then A again is version 3).
  setSemantics: true,
  precheck(input) {
    const seen = new Map<string, number>();
    const issues: { path: string; message: string }[] = [];
    input.blocks.forEach((b, i) => {
      const key = b.key ?? b.kind;
      const first = seen.get(key);
      if (first !== undefined)
        issues.push({ path: `blocks.${i}.key`, message: `${key} is also blocks.${first}` });
      else seen.set(key, i);
      if (b.kind !== 'discussion' && key !== b.kind)
        issues.push({ path: `blocks.${i}.key`, message: `a ${b.kind} block’s key is ${b.kind}` });
      if (b.kind === 'discussion' && key !== 'discussion' && !key.startsWith('discussion:'))
        issues.push({
          path: `blocks.${i}.key`,
          message: 'a discussion block’s key starts with "discussion:"',
        });
      if (b.title !== undefined && b.kind !== 'discussion')
        issues.push({ path: `blocks.${i}.title`, message: 'only discussion blocks have titles' });
    });
    if (issues.length > 0) throw invalidArgs(issues, 'One entry per block; keys as described.');
  },
  idempotencyKey: {
    describe: 'case_id + each block’s key and content hash',
    of: (i) =>
      `${i.case_id}:${sha256Hex(i.blocks.map((b, n) => `${b.key ?? b.kind}=${blockContentHash(toWrite(b, n))}`).join(','))}`,
  },
  async run({ ctx, input }) {
    await loadDraftableCase(ctx.db, input.case_id);
    const writes = input.blocks.map(toWrite);
    const now = ctx.now();
    const results = await ctx.db.transaction(async (tx) => {
      await lockCase(tx, input.case_id);
      await checkRefs(tx, input.case_id, writes);
      const out = [];
      for (const w of writes) out.push(await addVersion(tx, input.case_id, w, ctx.agent, 'write', now));
      await tx
        .update(cases)
        .set({ status: 'drafting', updatedAt: now })
        .where(and(eq(cases.id, input.case_id), eq(cases.status, 'open')));
      return out;
    });
    const blocks = results.map(({ row, created }) => ({
      key: row.key,
      kind: row.kind,
      version: row.version,
      created,
    }));
    const made = blocks.filter((b) => b.created).length;
    return ok(
      { blocks },
      made === 0
        ? `Already written: ${blocks.length} block(s) unchanged`
        : `Wrote ${made} new version(s): ${blocks
            .filter((b) => b.created)
            .map((b) => `${b.key} v${b.version}`)
            .join(', ')}`,
    );
  },
});
