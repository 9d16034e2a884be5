import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { pagedOutput } from '../../src/contract/limits.ts';
import { caseIdInput, loadLiveCase } from '../../src/domain/cases.ts';
import { blockKinds } from '../../src/drafting/blocks.ts';
import { blockKindInput, currentBlocks, missingRequired, versionCounts } from '../../src/drafting/store.ts';

const blockOutput = z.object({
  key: z.string(),
  kind: blockKindInput,
  title: z.string().nullable(),
  version: z.int().describe('The current version'),
  versions: z.int().describe('How many versions the block has'),
  author: z.string().describe('The agent that wrote the current version'),
  source: z.enum(['write', 'edit']).describe('Written whole (block_write) or edited (block_edit_apply)'),
  length: z.int().describe('Characters of text'),
  claim_ids: z.array(z.uuid()).max(200).describe('Claims it answers'),
  argument_ids: z.array(z.uuid()).max(200).describe('Arguments it answers'),
  citations: z.int().describe('Authorities it cites'),
  content_hash: z.string(),
  written_at: z.iso.datetime(),
});

export const block_list = defineTool({
  name: 'block_list',
  title: 'Decision blocks',
  description:
    'A case’s decision blocks in the decision’s order: current version, author, length, what each ' +
    'answers, and which required blocks are still missing. Read the text with block_context_get or draft_get.',
  input: { case_id: caseIdInput },
  output: pagedOutput(blockOutput, {
    missing: z.array(z.enum(blockKinds)).max(blockKinds.length).describe('Required kinds not written yet'),
  }),
  mutates: false,
  pages: { key: z.tuple([z.int().min(0)]) },
  async run({ ctx, input, page }) {
    await loadLiveCase(ctx.db, input.case_id);
    const blocks = await currentBlocks(ctx.db, input.case_id);
    const counts = await versionCounts(ctx.db, input.case_id);
    const from = page.after?.[0] ?? 0;
    const slice = blocks.slice(from, from + page.limit);
    const next = from + slice.length < blocks.length ? ([from + slice.length] as [number]) : null;
    return {
      ...page.of(
        slice.map((b) => ({
          key: b.key,
          kind: b.kind,
          title: b.title,
          version: b.version,
          versions: counts.get(b.key) ?? 1,
          author: b.author,
          source: b.source,
          length: b.text.length,
          claim_ids: b.claimIds,
          argument_ids: b.argumentIds,
          citations: b.citations.length,
          content_hash: b.contentHash,
          written_at: b.createdAt.toISOString(),
        })),
        next,
      ),
      missing: missingRequired(blocks),
    };
  },
});
