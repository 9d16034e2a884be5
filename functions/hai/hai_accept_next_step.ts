import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { one, ToolError } from '../../src/contract/errors.ts';
import { and, eq } from '../../src/db/orm.ts';
import { haiArtifacts, haiProposals } from '../../src/db/schema/hai.ts';
import { NEXT_STEP, NEXT_STEP_PROPOSED, writeArtifact } from '../../src/governance/artifacts.ts';
import { loadProject, projectIdInput } from '../../src/governance/projects.ts';
import { sentence, use } from '../../src/governance/roles.ts';

export const hai_accept_next_step = defineTool({
  name: 'hai_accept_next_step',
  title: 'Accept the proposed next step',
  description:
    'Makes the pending proposal the canonical next step (a new version of NEXT_STEP.md). Owner-gated, ' +
    'after the owner read it: name the proposal_version they approved (hai_get_next_step). ' +
    'no_proposal when nothing is pending.',
  input: {
    project_id: projectIdInput,
    proposal_version: z
      .number()
      .int()
      .min(1)
      .describe('The proposal version the owner approved (hai_get_next_step)'),
  },
  output: z.object({
    proposal_version: z.int().min(1).describe('The proposal accepted'),
    next_step_version: z.int().min(1).nullable().describe('The version of NEXT_STEP.md its text became'),
    accepted_by: z.string().nullable().describe('The agent that accepted it'),
    accepted_at: z.iso.datetime().nullable().describe('When it was accepted'),
    created: z.boolean().describe('false when it had already been accepted and was returned as it was'),
  }),
  mutates: 'write',
  ownerGate: true,
  idempotencyKey: {
    describe: 'project_id + proposal_version',
    of: (input) => `${input.project_id}:${input.proposal_version}`,
  },
  async run({ ctx, input, gate }) {
    return ctx.db.transaction(async (tx) => {
      await loadProject(tx, ctx, input.project_id, true);
      const [row] = await tx
        .select()
        .from(haiProposals)
        .where(
          and(eq(haiProposals.projectId, input.project_id), eq(haiProposals.version, input.proposal_version)),
        );
      if (row?.state === 'accepted') {
        return ok(
          {
            proposal_version: row.version,
            next_step_version: row.canonicalVersion,
            accepted_by: row.acceptedBy,
            accepted_at: row.acceptedAt?.toISOString() ?? null,
            created: false,
          },
          `Proposal ${row.version} was already accepted`,
        );
      }
      if (row?.state !== 'pending') {
        const [pending] = await tx
          .select({ version: haiProposals.version })
          .from(haiProposals)
          .where(and(eq(haiProposals.projectId, input.project_id), eq(haiProposals.state, 'pending')));
        if (pending === undefined) {
          throw new ToolError(
            'no_proposal',
            `Project ${input.project_id} has no proposal waiting for acceptance`,
            {
              details: { project_id: input.project_id, proposal_version: input.proposal_version },
              hint: sentence(
                `${use(ctx, 'hai_propose_next_step', 'propose a next step')}, show it to the owner, then accept it`,
              ),
            },
          );
        }
        throw new ToolError(
          'invalid_state',
          `Proposal ${input.proposal_version} is not the one waiting; version ${pending.version} is`,
          {
            details: { proposal_version: input.proposal_version, pending_version: pending.version },
            hint: sentence(
              `${use(ctx, 'hai_get_next_step', 'read it')}, show it to the owner, and accept that version with their approval`,
            ),
          },
        );
      }
      const text = one(
        await tx
          .select({ content: haiArtifacts.content, sha256: haiArtifacts.sha256 })
          .from(haiArtifacts)
          .where(
            and(
              eq(haiArtifacts.projectId, input.project_id),
              eq(haiArtifacts.name, NEXT_STEP_PROPOSED),
              eq(haiArtifacts.version, row.version),
            ),
          ),
        `text of proposal ${row.version}`,
      );
      const version = await writeArtifact(tx, ctx, input.project_id, NEXT_STEP, text.content, text.sha256);
      const now = ctx.now();
      await tx
        .update(haiProposals)
        .set({
          state: 'accepted',
          acceptedBy: ctx.agent,
          acceptedAt: now,
          acceptReason: gate?.reason ?? null,
          canonicalVersion: version,
        })
        .where(and(eq(haiProposals.projectId, input.project_id), eq(haiProposals.version, row.version)));
      return ok(
        {
          proposal_version: row.version,
          next_step_version: version,
          accepted_by: ctx.agent,
          accepted_at: now.toISOString(),
          created: true,
        },
        `Proposal ${row.version} accepted: ${NEXT_STEP} is now version ${version}`,
      );
    });
  },
});
