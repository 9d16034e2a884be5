import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { empty, ok } from '../../src/contract/envelope.ts';
import { nextStepOf } from '../../src/governance/artifacts.ts';
import { loadProject, projectIdInput } from '../../src/governance/projects.ts';

export const hai_get_next_step = defineTool({
  name: 'hai_get_next_step',
  title: 'Read the next step and its proposal',
  description:
    'Reads a project’s canonical next step (NEXT_STEP.md, changed only when the owner accepts) and ' +
    'the proposal awaiting acceptance with its version (NEXT_STEP.proposed.md). Status "empty" when ' +
    'neither exists.',
  input: { project_id: projectIdInput },
  output: z.object({
    project_id: z.string().describe('The project'),
    next_step: z
      .object({
        version: z.int().min(1).describe('The version of NEXT_STEP.md'),
        content: z.string().describe('Its text (Markdown)'),
        written_by: z.string().describe('The agent that accepted it'),
        written_at: z.iso.datetime().describe('When it was accepted'),
      })
      .nullable()
      .describe('The canonical next step (NEXT_STEP.md), or null before any was accepted'),
    pending_proposal: z
      .object({
        proposal_version: z.int().min(1).describe('The version hai_accept_next_step takes'),
        content: z.string().describe('The proposed text (Markdown)'),
        proposed_by: z.string().describe('The agent that proposed it'),
        proposed_at: z.iso.datetime().describe('When it was proposed'),
      })
      .nullable()
      .describe('The proposal waiting for the owner, or null'),
  }),
  mutates: false,
  async run({ ctx, input }) {
    await loadProject(ctx.db, ctx, input.project_id);
    const { accepted: canonical, pending } = await nextStepOf(ctx.db, input.project_id);
    const data = {
      project_id: input.project_id,
      next_step:
        canonical === undefined
          ? null
          : {
              version: canonical.version,
              content: canonical.content,
              written_by: canonical.writtenBy,
              written_at: canonical.writtenAt.toISOString(),
            },
      pending_proposal:
        pending === undefined
          ? null
          : {
              proposal_version: pending.proposal.version,
              content: pending.artifact.content,
              proposed_by: pending.proposal.proposedBy,
              proposed_at: pending.proposal.proposedAt.toISOString(),
            },
    };
    if (canonical === undefined && pending === undefined)
      return empty(data, 'No next step and no proposal yet');
    return ok(
      data,
      pending === undefined
        ? 'Canonical next step'
        : `A proposal (version ${pending.proposal.version}) waits for the owner`,
    );
  },
});
