import * as z from 'zod';
import { loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { empty, ok } from '../../src/contract/envelope.ts';
import { invalidArg } from '../../src/contract/errors.ts';
import { pagedOutput } from '../../src/contract/limits.ts';
import { anchorOutput, anchorsOf, latestExport, loadExport } from '../../src/drafting/exports.ts';

export const draft_bookmark_list = defineTool({
  name: 'draft_bookmark_list',
  title: 'Export anchors',
  description:
    'The block anchors of a Word export (tags, bookmarks), with each block’s version and exported text ' +
    'hash: of export_id, or of the case’s latest export.',
  input: {
    case_id: z.uuid().optional().describe('Its latest export'),
    export_id: z.uuid().optional().describe('Or this export'),
  },
  output: pagedOutput(anchorOutput, {
    export_id: z.uuid().nullable(),
    sha256: z.string().nullable(),
  }),
  mutates: false,
  precheck(input) {
    if ((input.case_id === undefined) === (input.export_id === undefined))
      throw invalidArg('case_id', 'give case_id or export_id, exactly one');
  },
  pages: { key: z.tuple([z.int().min(0)]) },
  async run({ ctx, input, page }) {
    let row: Awaited<ReturnType<typeof loadExport>> | undefined;
    if (input.export_id !== undefined) row = await loadExport(ctx.db, input.export_id);
    else {
      const c = await loadLiveCase(ctx.db, input.case_id ?? '');
      row = await latestExport(ctx.db, c.id);
      if (row === undefined)
        return empty({ ...page.of([], null), export_id: null, sha256: null }, 'The case has no export yet');
    }
    const all = anchorsOf(row);
    const from = page.after?.[0] ?? 0;
    const slice = all.slice(from, from + page.limit);
    const next = from + slice.length < all.length ? ([from + slice.length] as [number]) : null;
    return ok(
      { ...page.of(slice, next), export_id: row.id, sha256: row.sha256 },
      `${all.length} block anchor(s) in export ${row.id}`,
    );
  },
});
