import * as z from 'zod';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { invalidArg, ToolError } from '../../src/contract/errors.ts';
import { and, eq } from '../../src/db/orm.ts';
import { haiMissions } from '../../src/db/schema/hai.ts';
import {
  contractInput,
  contractOutput,
  contractView,
  termsHash,
  validContract,
  writeContract,
} from '../../src/governance/contracts.ts';
import { loadContract, missionOutput, missionScopeKey, missionView } from '../../src/governance/missions.ts';
import { loadProject, projectIdInput } from '../../src/governance/projects.ts';
import { sentence, use } from '../../src/governance/roles.ts';

export const hai_open_mission = defineTool({
  name: 'hai_open_mission',
  title: 'Open a mission under a finite contract',
  description:
    'Opens a mission with contract version 1: a goal, activities in and out of scope, acceptance ' +
    'criteria with how each is verified, an expiry and the session cap. For one case’s legal work give ' +
    'case_id (no project or device): one active mission per case or per project (else ' +
    'active_mission_exists); the name is its key. Agents join with hai_authorize_session.',
  input: {
    name: z
      .string()
      .trim()
      .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'lower-case letters, digits, "_" or "-"')
      .describe('Unique mission name, e.g. "erer-1024-analysis"'),
    title: z.string().trim().min(1).max(300).describe('What the mission is, for people'),
    project_id: projectIdInput
      .optional()
      .describe('The project it works on; sessions then need a bound device'),
    case_id: caseIdInput.optional().describe('The case it governs; not with project_id'),
    ...contractInput,
  },
  output: z.object({
    mission: missionOutput,
    contract: contractOutput.describe('The contract in force (v1 when just opened)'),
    created: z.boolean().describe('false when the mission already existed with these terms and was returned'),
  }),
  mutates: 'write',
  idempotencyKey: {
    describe: 'project_id or case_id (or none) + name',
    of: (input) => `${missionScopeKey({ projectId: input.project_id, caseId: input.case_id })}:${input.name}`,
  },
  precheck(input) {
    if (input.project_id !== undefined && input.case_id !== undefined) {
      throw invalidArg(
        'case_id',
        'give project_id or case_id, not both',
        'A case mission needs no project: give case_id alone.',
      );
    }
  },
  async run({ ctx, input }) {
    const now = ctx.now();
    const terms = validContract(input, now);
    const scopeKey = missionScopeKey({ projectId: input.project_id, caseId: input.case_id });
    const termsSha256 = termsHash(terms);
    if (input.project_id !== undefined) await loadProject(ctx.db, ctx, input.project_id);
    if (input.case_id !== undefined) await loadLiveCase(ctx.db, input.case_id);
    return ctx.db.transaction(async (tx) => {
      const [same] = await tx
        .select()
        .from(haiMissions)
        .where(and(eq(haiMissions.scopeKey, scopeKey), eq(haiMissions.name, input.name)));
      if (same !== undefined) {
        const v1 = await loadContract(tx, same.id, 1);
        if (v1.termsSha256 !== termsSha256 || same.title !== input.title) {
          throw new ToolError(
            'idempotency_key_reuse',
            `Mission "${input.name}" already exists with other terms`,
            {
              details: { key: `${scopeKey}:${input.name}`, mission_id: same.id },
              hint: sentence(
                `use a new name for a new mission; ${use(ctx, 'hai_recontract', 'change a mission’s contract')}`,
              ),
            },
          );
        }
        const current = await loadContract(tx, same.id, same.currentVersion);
        return ok(
          { mission: missionView(same), contract: contractView(current), created: false },
          `Mission ${same.name} already exists`,
        );
      }
      const id = crypto.randomUUID();
      // The partial unique index on (scope_key) where active decides a race between two openings.
      const inserted = await tx
        .insert(haiMissions)
        .values({
          id,
          name: input.name,
          projectId: input.project_id ?? null,
          caseId: input.case_id ?? null,
          scopeKey,
          title: input.title,
          state: 'active',
          currentVersion: 1,
          leaseEpoch: 1,
          openedBy: ctx.agent,
          openedAt: now,
        })
        .onConflictDoNothing()
        .returning();
      const mission = inserted[0];
      if (mission === undefined) {
        const [active] = await tx
          .select()
          .from(haiMissions)
          .where(and(eq(haiMissions.scopeKey, scopeKey), eq(haiMissions.state, 'active')));
        throw new ToolError(
          'active_mission_exists',
          input.project_id !== undefined
            ? `Project ${input.project_id} already has an active mission`
            : input.case_id !== undefined
              ? `Case ${input.case_id} already has an active mission`
              : 'A mission without a project or case is already active',
          {
            details: {
              project_id: input.project_id ?? null,
              case_id: input.case_id ?? null,
              active_mission_id: active?.id ?? null,
              active_mission_name: active?.name ?? null,
            },
            hint: sentence(
              `${use(ctx, 'hai_close_mission', 'close the active mission')} (or recontract it) before opening another`,
            ),
          },
        );
      }
      const contract = await writeContract(tx, ctx, {
        missionId: id,
        version: 1,
        terms,
        termsSha256,
        createdAt: now,
      });
      return ok(
        { mission: missionView(mission), contract: contractView(contract), created: true },
        `Mission ${mission.name} opened under contract v1`,
      );
    });
  },
});
