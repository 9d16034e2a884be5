import * as z from 'zod';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { pagedOutput } from '../../src/contract/limits.ts';
import { blockKinds } from '../../src/db/schema/drafting.ts';
import { currentBlocks, missingRequired, versionCounts } from '../../src/drafting/store.ts';

const blockOutput = z.object({
  key: z.string(),
  kind: z.string(),
  title: z.string().nullable(),
  version: z.int(),
  versions: z.int(),
  author: z.string(),
  length: z.int(),
  claim_ids: z.array(z.uuid()).max(200).describe('Claims it answers'),
  argument_ids: z.array(z.uuid()).max(200),
  citations: z.int(),
  written_at: z.iso.datetime(),
});

export const block_list = defineTool({
  name: 'block_list',
  title: 'Decision blocks',
  description:
    'A case’s decision blocks in order: current version, author, length, what each answers, and the ' +
    'required blocks still missing. Texts: block_context_get, draft_get.',
  input: { case_id: caseIdInput },
  output: pagedOutput(blockOutput, {
    missing: z.array(z.string()).max(blockKinds.length),
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
          length: b.text.length,
          claim_ids: b.claimIds,
          argument_ids: b.argumentIds,
          citations: b.citations.length,
          written_at: b.createdAt.toISOString(),
        })),
        next,
      ),
      missing: missingRequired(blocks),
    };
  },
});
