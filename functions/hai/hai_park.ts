import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { writtenOrExisting } from '../../src/contract/durable.ts';
import { ok } from '../../src/contract/envelope.ts';
import { sha256Hex } from '../../src/contract/hash.ts';
import { and, eq } from '../../src/db/orm.ts';
import { haiInbox } from '../../src/db/schema/hai.ts';
import { inboxItemOutput, inboxItemView } from '../../src/governance/inbox.ts';
import { loadProject, projectIdInput } from '../../src/governance/projects.ts';

export const hai_park = defineTool({
  name: 'hai_park',
  title: 'Park an idea in the project inbox',
  description:
    'Puts an idea, request or loose end into a project’s inbox so it is neither lost nor a ' +
    'distraction; touches nothing else; hai_inbox_list reads the inbox back. A mission’s set-aside work ' +
    'item goes to hai_park_item.',
  input: {
    project_id: projectIdInput,
    text: z
      .string()
      .trim()
      .min(1)
      .max(5000)
      .describe('The idea or request, in a sentence or a short paragraph'),
    source: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe('Where it came from (owner, hearing, document...)'),
  },
  output: z.object({
    item: inboxItemOutput,
    created: z.boolean().describe('false when the same text was already in the inbox'),
  }),
  mutates: 'write',
  idempotencyKey: { describe: 'project_id + text', of: (input) => `${input.project_id}:${input.text}` },
  async run({ ctx, input }) {
    await loadProject(ctx.db, ctx, input.project_id);
    const textSha256 = sha256Hex(input.text);
    const { row, written } = await writtenOrExisting(
      ctx.db
        .insert(haiInbox)
        .values({
          id: crypto.randomUUID(),
          projectId: input.project_id,
          text: input.text,
          textSha256,
          source: input.source ?? null,
          parkedBy: ctx.agent,
          parkedAt: ctx.now(),
        })
        .onConflictDoNothing()
        .returning(),
      () =>
        ctx.db
          .select()
          .from(haiInbox)
          .where(and(eq(haiInbox.projectId, input.project_id), eq(haiInbox.textSha256, textSha256))),
      'inbox row',
    );
    return ok(
      {
        item: inboxItemView(row),
        created: written,
      },
      written ? 'Parked in the inbox' : 'Already in the inbox',
    );
  },
});
