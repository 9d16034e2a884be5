import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { one, ToolError } from '../../src/contract/errors.ts';
import { and, eq, ne, sql } from '../../src/db/orm.ts';
import { haiLanes, laneStates } from '../../src/db/schema/hai.ts';
import { loadProject, MAX_ACTIVE_LANES, projectIdInput } from '../../src/governance/projects.ts';

export const hai_set_focus = defineTool({
  name: 'hai_set_focus',
  title: 'Set a focus lane active or parked',
  description:
    'Sets a project’s focus lane (its active context) to "active" or "parked". At most two lanes are ' +
    'active (a third is max_active_lanes: park one first). Returns the lane and the active lanes.',
  input: {
    project_id: projectIdInput,
    lane: z
      .string()
      .trim()
      .regex(/^[a-z0-9][a-z0-9_-]{0,49}$/, 'lower-case letters, digits, "_" or "-"')
      .describe('The lane name, e.g. "analysis" or "drafting"'),
    state: z.enum(laneStates).describe('"active" to focus on it, "parked" to set it aside'),
    note: z.string().trim().min(1).max(1000).optional().describe('What this lane is about right now'),
  },
  output: z.object({
    lane: z.object({
      lane: z.string().describe('The lane name'),
      state: z.enum(laneStates),
      note: z.string().nullable().describe('What the lane is about right now'),
      updated_by: z.string().describe('The agent that last changed it'),
      updated_at: z.iso.datetime(),
    }),
    active_lanes: z
      .array(z.string())
      .max(MAX_ACTIVE_LANES)
      .describe('The project’s active lanes after this call, by name'),
    changed: z.boolean().describe('false when the lane already had this state and note'),
  }),
  mutates: 'write',
  // Setting a state is idempotent by itself; the key only makes a concurrent duplicate wait.
  idempotencyKey: {
    describe: 'project_id + lane + state + note',
    of: (input) => `${input.project_id}:${input.lane}:${input.state}:${input.note ?? ''}`,
  },
  setSemantics: true,
  async run({ ctx, input }) {
    return ctx.db.transaction(async (tx) => {
      // The project row lock serialises lane changes, so two activations cannot both see one free slot.
      await loadProject(tx, ctx, input.project_id, true);
      if (input.state === 'active') {
        const others = await tx
          .select({ lane: haiLanes.lane })
          .from(haiLanes)
          .where(
            and(
              eq(haiLanes.projectId, input.project_id),
              eq(haiLanes.state, 'active'),
              ne(haiLanes.lane, input.lane),
            ),
          );
        if (others.length >= MAX_ACTIVE_LANES) {
          throw new ToolError(
            'max_active_lanes',
            `Project ${input.project_id} already has ${others.length} active lanes (at most ${MAX_ACTIVE_LANES})`,
            {
              details: { active: others.map((o) => o.lane).sort(), max: MAX_ACTIVE_LANES },
              hint: 'Park one of the active lanes with hai_set_focus state "parked" before focusing another.',
            },
          );
        }
      }
      const activeLanes = async () =>
        (
          await tx
            .select({ lane: haiLanes.lane })
            .from(haiLanes)
            .where(and(eq(haiLanes.projectId, input.project_id), eq(haiLanes.state, 'active')))
        )
          .map((a) => a.lane)
          .sort();
      const laneView = (l: typeof haiLanes.$inferSelect) => ({
        lane: l.lane,
        state: l.state,
        note: l.note,
        updated_by: l.updatedBy,
        updated_at: l.updatedAt.toISOString(),
      });
      const [current] = await tx
        .select()
        .from(haiLanes)
        .where(and(eq(haiLanes.projectId, input.project_id), eq(haiLanes.lane, input.lane)));
      if (
        current !== undefined &&
        current.state === input.state &&
        (input.note ?? current.note) === current.note
      ) {
        // A retry (or a no-op): nothing is written, not even the timestamp.
        return ok(
          { lane: laneView(current), active_lanes: await activeLanes(), changed: false },
          `Lane ${current.lane} was already ${current.state}`,
        );
      }
      const now = ctx.now();
      const upserted = await tx
        .insert(haiLanes)
        .values({
          projectId: input.project_id,
          lane: input.lane,
          state: input.state,
          note: input.note ?? null,
          updatedBy: ctx.agent,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: [haiLanes.projectId, haiLanes.lane],
          set: {
            state: input.state,
            note: input.note === undefined ? sql`${haiLanes.note}` : input.note,
            updatedBy: ctx.agent,
            updatedAt: now,
          },
        })
        .returning();
      const lane = one(upserted, 'lane upsert');
      return ok(
        { lane: laneView(lane), active_lanes: await activeLanes(), changed: true },
        `Lane ${lane.lane} is ${lane.state}`,
      );
    });
  },
});
