import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { invalidArg } from '../../src/contract/errors.ts';
import { pagedOutput } from '../../src/contract/limits.ts';
import { caseIdInput, loadLiveCase } from '../../src/domain/cases.ts';
import {
  type BlockKind,
  blockKeyInput,
  blockKinds,
  citationInput,
  MAX_CITATIONS,
} from '../../src/drafting/blocks.ts';
import {
  blockContext,
  contextItemOutput,
  contextSections,
  pendingSections,
  sectionsOf,
} from '../../src/drafting/context.ts';
import { blockKindInput, currentBlock } from '../../src/drafting/store.ts';

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
  title: 'Context for writing a block',
  description:
    'Everything needed to write one block of a case’s decision, each item with its provenance: the case’s ' +
    'details, the block’s current text and version, and per kind the parties’ confirmed claims, the ' +
    'arguments with their claims, the references and the appraisers’ facts and conflicts. Paged.',
  input: {
    case_id: caseIdInput,
    block: blockKeyInput,
  },
  output: pagedOutput(contextItemOutput, {
    case: z.object({
      id: z.uuid(),
      case_number: z.string(),
      title: z.string(),
      appellant: z.string().nullable(),
      respondent: z.string().nullable(),
      committee: z.string().nullable(),
      practice_area: z.string().nullable(),
      property_address: z.string().nullable(),
      status: z.string(),
      outcome: z.string().nullable(),
    }),
    block: z.object({
      key: z.string(),
      kind: blockKindInput,
      version: z.int().nullable().describe('The current version; null when not written yet'),
      title: z.string().nullable(),
      text: z.string().nullable(),
      claim_ids: z.array(z.uuid()).max(200),
      argument_ids: z.array(z.uuid()).max(200),
      citations: z.array(citationInput).max(MAX_CITATIONS),
    }),
    sections: z
      .array(z.object({ section: z.enum(contextSections), items: z.int() }))
      .max(contextSections.length)
      .describe('What the context holds for this kind of block, with counts over all pages'),
    not_available: z
      .array(z.enum(pendingSections))
      .max(pendingSections.length)
      .describe('Sections this server cannot fill yet'),
  }),
  mutates: false,
  pages: { key: z.tuple([z.int().min(0)]) },
  async run({ ctx, input, page }) {
    const row = await loadLiveCase(ctx.db, input.case_id);
    const kind = kindOfKey(input.block);
    const current = await currentBlock(ctx.db, input.case_id, input.block);
    const items = await blockContext(ctx.db, input.case_id, kind, current?.argumentIds ?? []);
    const from = page.after?.[0] ?? 0;
    const slice = items.slice(from, from + page.limit);
    const next = from + slice.length < items.length ? ([from + slice.length] as [number]) : null;
    return {
      ...page.of(slice, next),
      case: {
        id: row.id,
        case_number: row.caseNumber,
        title: row.title,
        appellant: row.appellant,
        respondent: row.respondent,
        committee: row.committee,
        practice_area: row.practiceArea,
        property_address: row.propertyAddress,
        status: row.status,
        outcome: row.outcome,
      },
      block: {
        key: input.block,
        kind,
        version: current?.version ?? null,
        title: current?.title ?? null,
        text: current?.text ?? null,
        claim_ids: current?.claimIds ?? [],
        argument_ids: current?.argumentIds ?? [],
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
