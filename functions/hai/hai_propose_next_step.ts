import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { sha256Hex } from '../../src/contract/hash.ts';
import { and, desc, eq } from '../../src/db/orm.ts';
import { haiArtifacts, haiProposals, proposalStates } from '../../src/db/schema/hai.ts';
import { NEXT_STEP_PROPOSED, proposalText, writeArtifact } from '../../src/governance/artifacts.ts';
import { loadProject, projectIdInput } from '../../src/governance/projects.ts';

export const hai_propose_next_step = defineTool({
  name: 'hai_propose_next_step',
  title: 'Propose the next step',
  description:
    'Proposes a project’s next step (a new version of NEXT_STEP.proposed.md); a newer proposal ' +
    'supersedes a pending one. NEXT_STEP.md changes only when the owner accepts ' +
    '(hai_accept_next_step). Returns the proposal_version to hand to the owner.',
  input: {
    project_id: projectIdInput,
    content: z
      .string()
      .trim()
      .min(1)
      .max(100_000)
      .describe('The next step as Markdown: what, why, how it is checked'),
  },
  output: z.object({
    proposal_version: z
      .int()
      .min(1)
      .describe('The version to hand to the owner (hai_accept_next_step takes it)'),
    state: z.enum(proposalStates).describe('pending, or what became of an earlier proposal of this text'),
    superseded: z.int().min(1).nullable().describe('The pending proposal this one replaced, if any'),
    created: z.boolean().describe('false when this text already was the latest proposal'),
  }),
  mutates: 'write',
  idempotencyKey: { describe: 'project_id + content', of: (input) => `${input.project_id}:${input.content}` },
  async run({ ctx, input }) {
    const sha = sha256Hex(input.content);
    return ctx.db.transaction(async (tx) => {
      await loadProject(tx, ctx, input.project_id, true);
      const [latest] = await tx
        .select({ proposal: haiProposals, sha256: haiArtifacts.sha256 })
        .from(haiProposals)
        .innerJoin(haiArtifacts, proposalText)
        .where(eq(haiProposals.projectId, input.project_id))
        .orderBy(desc(haiProposals.version))
        .limit(1);
      if (latest !== undefined && latest.sha256 === sha) {
        return ok(
          {
            proposal_version: latest.proposal.version,
            state: latest.proposal.state,
            superseded: null,
            created: false,
          },
          `This text is already proposal ${latest.proposal.version} (${latest.proposal.state})`,
        );
      }
      const superseded = await tx
        .update(haiProposals)
        .set({ state: 'superseded' })
        .where(and(eq(haiProposals.projectId, input.project_id), eq(haiProposals.state, 'pending')))
        .returning({ version: haiProposals.version });
      const version = await writeArtifact(tx, ctx, input.project_id, NEXT_STEP_PROPOSED, input.content, sha);
      await tx.insert(haiProposals).values({
        projectId: input.project_id,
        version,
        state: 'pending',
        proposedBy: ctx.agent,
        proposedAt: ctx.now(),
      });
      return ok(
        {
          proposal_version: version,
          state: 'pending',
          superseded: superseded[0]?.version ?? null,
          created: true,
        },
        `Proposal ${version} written; it waits for the owner’s acceptance`,
      );
    });
  },
});
