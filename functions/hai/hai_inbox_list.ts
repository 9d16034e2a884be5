import { defineTool } from '../../src/contract/define.ts';
import { createdAtKeyset, pagedOutput } from '../../src/contract/limits.ts';
import { and, eq, type SQL } from '../../src/db/orm.ts';
import { haiInbox } from '../../src/db/schema/hai.ts';
import { inboxItemOutput, inboxItemView } from '../../src/governance/inbox.ts';
import { loadProject, projectIdInput } from '../../src/governance/projects.ts';

const keyset = createdAtKeyset(haiInbox.parkedAt, haiInbox.id);

export const hai_inbox_list = defineTool({
  name: 'hai_inbox_list',
  title: 'Read the project inbox',
  description:
    'Lists what was parked in a project’s inbox with hai_park (ideas, requests, loose ends), oldest ' +
    'first so nothing waits unseen; without project_id, every project’s. Reading changes nothing: an ' +
    'item is only a note until the owner brings it into a mission. Paged (limit, cursor).',
  input: {
    project_id: projectIdInput.optional().describe('Only this project’s inbox (hai_status lists projects)'),
  },
  output: pagedOutput(inboxItemOutput),
  mutates: false,
  pages: keyset.pages,
  async run({ ctx, input, page }) {
    const where: (SQL | undefined)[] = [];
    if (input.project_id !== undefined) {
      await loadProject(ctx.db, ctx, input.project_id);
      where.push(eq(haiInbox.projectId, input.project_id));
    }
    if (page.after !== undefined) where.push(keyset.after(page.after));
    const rows = await ctx.db
      .select({ row: haiInbox, at: keyset.cursorAt })
      .from(haiInbox)
      .where(and(...where))
      .orderBy(haiInbox.parkedAt, haiInbox.id)
      .limit(page.limit + 1);
    return page.from(
      rows,
      (r) => [r.at, r.row.id] as const,
      (r) => inboxItemView(r.row),
    );
  },
});
