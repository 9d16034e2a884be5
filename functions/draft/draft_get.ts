import * as z from 'zod';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { blockKinds } from '../../src/db/schema/drafting.ts';
import { assemble, renderDraft } from '../../src/drafting/assemble.ts';
import { currentBlocks } from '../../src/drafting/store.ts';

/** The longest draft returned whole; a longer one is cut and says so. */
export const MAX_DRAFT_CHARS = 600_000;
const MAX_PARTS = 500;

export const draft_get = defineTool({
  name: 'draft_get',
  title: 'The draft decision',
  description:
    'The decision assembled from the current blocks, paragraphs numbered as decisions are, a placeholder ' +
    'for each required block not written; markdown or text. Word file: draft_export.',
  input: {
    case_id: caseIdInput,
    format: z.enum(['markdown', 'text']).optional().describe('Default markdown'),
  },
  output: z.object({
    format: z.enum(['markdown', 'text']),
    text: z.string(),
    truncated: z.boolean().describe(`Cut at ${MAX_DRAFT_CHARS} characters`),
    paragraphs: z.int(),
    blocks: z
      .array(
        z.object({
          key: z.string().nullable(),
          kind: z.string(),
          version: z.int().nullable(),
          first_paragraph: z.int().nullable(),
          last_paragraph: z.int().nullable(),
          placeholder: z.boolean(),
        }),
      )
      .max(MAX_PARTS),
    missing: z.array(z.string()).max(blockKinds.length),
  }),
  mutates: false,
  async run({ ctx, input }) {
    await loadLiveCase(ctx.db, input.case_id);
    const format = input.format ?? 'markdown';
    const draft = assemble(await currentBlocks(ctx.db, input.case_id));
    const full = renderDraft(draft, format);
    const numbers = (ns: (number | null)[]) => ns.filter((n): n is number => n !== null);
    return ok(
      {
        format,
        text: full.slice(0, MAX_DRAFT_CHARS),
        truncated: full.length > MAX_DRAFT_CHARS,
        paragraphs: draft.paragraphs,
        blocks: draft.parts.slice(0, MAX_PARTS).map((p) => {
          const ns = numbers(p.paragraphs.map((x) => x.n));
          return {
            key: p.key,
            kind: p.kind,
            version: p.version,
            first_paragraph: ns[0] ?? null,
            last_paragraph: ns.at(-1) ?? null,
            placeholder: p.placeholder,
          };
        }),
        missing: draft.missing,
      },
      draft.missing.length === 0
        ? `The draft: ${draft.parts.length} block(s), ${draft.paragraphs} numbered paragraph(s)`
        : `An interim draft: ${draft.missing.length} required block(s) not written (${draft.missing.join(', ')})`,
    );
  },
});
