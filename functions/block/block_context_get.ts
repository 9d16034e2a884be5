import * as z from 'zod';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { invalidArg } from '../../src/contract/errors.ts';
import { pagedOutput } from '../../src/contract/limits.ts';
import { type BlockKind, blockKinds } from '../../src/db/schema/drafting.ts';
import { blockKeyInput, citationOutput, MAX_CITATIONS } from '../../src/drafting/blocks.ts';
import {
  blockContext,
  contextItemOutput,
  contextSections,
  pendingSections,
  sectionsOf,
} from '../../src/drafting/context.ts';
import { currentBlock } from '../../src/drafting/store.ts';

const kindOfKey = (key: string): BlockKind => {
  if (key.startsWith('discussion:')) return 'discussion';
  if ((blockKinds as readonly string[]).includes(key)) return key as BlockKind;
  throw invalidArg(
    'block',
    'a block’s key is its kind, or "discussion:<topic>"',
    'block_list lists the blocks written.',
  );
};

export const block_context_get = defineTool({
  name: 'block_context_get',
  title: 'Block context',
  description:
    'What writing a decision block needs, with provenance: case details, the block’s text and version, ' +
    'the party’s confirmed claims or the arguments, the section’s precedents and approved holdings, ' +
    'references, appraisers’ facts and conflicts, the chair’s feedback, closest style-corpus examples. Paged.',
  input: {
    case_id: caseIdInput,
    block: blockKeyInput,
  },
  output: pagedOutput(contextItemOutput, {
    case: z.object({
      id: z.uuid(),
      case_number: z.string(),
      appellant: z.string().nullable(),
      respondent: z.string().nullable(),
      committee: z.string().nullable(),
      practice_area: z.string().nullable(),
    }),
    block: z.object({
      key: z.string(),
      kind: z.string(),
      version: z.int().nullable().describe('null: not written yet'),
      title: z.string().nullable(),
      text: z.string().nullable(),
      citations: z.array(citationOutput).max(MAX_CITATIONS),
    }),
    sections: z.array(z.object({ section: z.string(), items: z.int() })).max(contextSections.length),
    not_available: z.array(z.string()).max(3).describe('Sections this server cannot fill'),
  }),
  mutates: false,
  pages: { key: z.tuple([z.int().min(0)]) },
  async run({ ctx, input, page }) {
    const row = await loadLiveCase(ctx.db, input.case_id);
    const kind = kindOfKey(input.block);
    const current = await currentBlock(ctx.db, input.case_id, input.block);
    const items = await blockContext(ctx.db, input.case_id, {
      key: input.block,
      kind,
      title: current?.title ?? null,
      text: current?.text ?? null,
      argumentIds: current?.argumentIds ?? [],
      citations: current?.citations ?? [],
    });
    const from = page.after?.[0] ?? 0;
    const slice = items.slice(from, from + page.limit);
    const next = from + slice.length < items.length ? ([from + slice.length] as [number]) : null;
    return {
      ...page.of(slice, next),
      case: {
        id: row.id,
        case_number: row.caseNumber,
        appellant: row.appellant,
        respondent: row.respondent,
        committee: row.committee,
        practice_area: row.practiceArea,
      },
      block: {
        key: input.block,
        kind,
        version: current?.version ?? null,
        title: current?.title ?? null,
        text: current?.text ?? null,
        citations: current?.citations ?? [],
      },
      sections: sectionsOf(kind).map((section) => ({
        section,
        items: items.filter((i) => i.section === section).length,
      })),
      not_available: [...pendingSections],
    };
  },
});
