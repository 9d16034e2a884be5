import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { loadProject, projectIdInput } from '../../src/governance/projects.ts';
import {
  activeMissions,
  healthOutput,
  MISSIONS_SHOWN,
  missionSummary,
  missionSummaryOutput,
  PROJECTS_SHOWN,
  projectSummaries,
  projectSummaryOutput,
  storeHealth,
} from '../../src/governance/status.ts';

export const hai_status = defineTool({
  name: 'hai_status',
  title: 'Governance status',
  description:
    'Summarises governance: per project its mounts, focus lanes, inbox size, pending proposal and last ' +
    'checkpoint; every active mission with its contract and live sessions; store health. project_id ' +
    'narrows it; hai_recover turns it into next actions.',
  input: { project_id: projectIdInput.optional() },
  output: z.object({
    health: healthOutput,
    projects: z
      .array(projectSummaryOutput)
      .max(PROJECTS_SHOWN)
      .describe(`The project asked for, or the first ${PROJECTS_SHOWN} by id`),
    projects_truncated: z.boolean().describe('More projects exist than shown (ask for one by project_id)'),
    active_missions: z
      .array(missionSummaryOutput)
      .max(MISSIONS_SHOWN)
      .describe(`Active missions (of the project), the first ${MISSIONS_SHOWN} by opening time`),
    active_missions_truncated: z.boolean().describe('More active missions exist than shown'),
    as_of: z.iso.datetime().describe('When this was read'),
  }),
  mutates: false,
  async run({ ctx, input }) {
    if (input.project_id !== undefined) await loadProject(ctx.db, ctx, input.project_id);
    const [health, projects, missions] = await Promise.all([
      storeHealth(ctx),
      projectSummaries(ctx, input.project_id),
      activeMissions(ctx, input.project_id),
    ]);
    return ok(
      {
        health,
        projects: projects.projects,
        projects_truncated: projects.truncated,
        active_missions: missions.missions.map(missionSummary),
        active_missions_truncated: missions.truncated,
        as_of: ctx.now().toISOString(),
      },
      `${projects.projects.length} project(s), ${missions.missions.length} active mission(s)`,
    );
  },
});
