import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { writtenOrExisting } from '../../src/contract/durable.ts';
import { ok } from '../../src/contract/envelope.ts';
import { sha256Hex } from '../../src/contract/hash.ts';
import { and, eq } from '../../src/db/orm.ts';
import { haiParkedItems } from '../../src/db/schema/hai.ts';
import { loadMission, missionIdInput, requireActive } from '../../src/governance/missions.ts';

export const hai_park_item = defineTool({
  name: 'hai_park_item',
  title: 'Park a mission’s work item',
  description:
    'Records a work item of an active mission that will not be done now (out of scope, blocked, ' +
    'later), with its rationale. It carries no execution right: only the owner brings it in ' +
    '(hai_recontract or a new mission). Loose ideas of a project go to hai_park.',
  input: {
    mission_id: missionIdInput,
    item: z.string().trim().min(1).max(2000).describe('The work item being parked'),
    rationale: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .describe('Why it is parked, e.g. "out of scope: the plan is not in the contract"'),
  },
  output: z.object({
    parked: z.object({
      id: z.uuid().describe('The parked item id'),
      mission_id: z.uuid(),
      item: z.string(),
      rationale: z.string().describe('Why it was parked (the first rationale given)'),
      parked_by: z.string().describe('The agent that parked it first'),
      parked_at: z.iso.datetime(),
      execution_right: z.literal(false).describe('Always false: parking authorizes nothing'),
    }),
    created: z.boolean().describe('false when the same item was already parked'),
  }),
  mutates: 'write',
  idempotencyKey: { describe: 'mission_id + item', of: (input) => `${input.mission_id}:${input.item}` },
  async run({ ctx, input }) {
    const mission = await loadMission(ctx.db, input.mission_id);
    requireActive(ctx, mission);
    const itemSha256 = sha256Hex(input.item);
    const { row, written } = await writtenOrExisting(
      ctx.db
        .insert(haiParkedItems)
        .values({
          id: crypto.randomUUID(),
          missionId: mission.id,
          item: input.item,
          itemSha256,
          rationale: input.rationale,
          parkedBy: ctx.agent,
          parkedAt: ctx.now(),
        })
        .onConflictDoNothing()
        .returning(),
      () =>
        ctx.db
          .select()
          .from(haiParkedItems)
          .where(and(eq(haiParkedItems.missionId, mission.id), eq(haiParkedItems.itemSha256, itemSha256))),
      'parked item',
    );
    return ok(
      {
        parked: {
          id: row.id,
          mission_id: row.missionId,
          item: row.item,
          rationale: row.rationale,
          parked_by: row.parkedBy,
          parked_at: row.parkedAt.toISOString(),
          execution_right: false as const,
        },
        created: written,
      },
      written ? 'Item parked (no execution right)' : 'This item was already parked',
    );
  },
});
