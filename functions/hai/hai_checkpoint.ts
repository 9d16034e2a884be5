import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { invalidArg, ToolError } from '../../src/contract/errors.ts';
import { sha256Hex, stableStringify } from '../../src/contract/hash.ts';
import { and, eq } from '../../src/db/orm.ts';
import { haiCheckpoints } from '../../src/db/schema/hai.ts';
import {
  artifactVersionsOutput,
  confineArtifactName,
  isFreelyWritable,
  latestVersions,
  writeArtifactIfChanged,
} from '../../src/governance/artifacts.ts';
import { loadProject, projectIdInput } from '../../src/governance/projects.ts';
import { sentence, use, whoDoes } from '../../src/governance/roles.ts';

/** How many artifacts one checkpoint may write. */
const MAX_WRITES = 10;

export const hai_checkpoint = defineTool({
  name: 'hai_checkpoint',
  title: 'Record a checkpoint in the project history',
  description:
    'Records a named checkpoint in a project’s history: a summary, optionally new versions of its ' +
    'run-contract artifacts (PROJECT_STATE.md, BRIEFING.md, …), and every artifact’s version then, for ' +
    'hai_recover. The label is the key (other content under it: idempotency_key_reuse).',
  input: {
    project_id: projectIdInput,
    label: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/, 'letters, digits, ".", "_", ":" or "-"')
      .describe('Unique checkpoint name, e.g. "analysis-done-2026-11-30"'),
    summary: z.string().trim().min(1).max(5000).describe('What was done and what state the work is in'),
    artifacts: z
      .array(
        z.object({
          name: z.string().min(1).max(300).describe('Artifact name, e.g. "PROJECT_STATE.md"'),
          content: z.string().max(100_000).describe('The full new text of the artifact (Markdown)'),
        }),
      )
      .max(MAX_WRITES)
      .optional()
      .describe(
        'Artifacts to write at this checkpoint (full text each; unchanged text writes no new version)',
      ),
  },
  output: z.object({
    checkpoint: z.object({
      id: z.uuid().describe('The checkpoint id'),
      label: z.string().describe('Its label, unique in the project'),
      written: z
        .array(z.string())
        .max(MAX_WRITES)
        .describe('The artifacts it wrote a new version of (unchanged text writes none)'),
      artifacts: artifactVersionsOutput.describe('Every artifact of the project → its version at this point'),
      created_at: z.iso.datetime().describe('When it was recorded'),
    }),
    created: z.boolean().describe('false when this checkpoint was already recorded and was returned'),
  }),
  mutates: 'write',
  idempotencyKey: { describe: 'project_id + label', of: (input) => `${input.project_id}:${input.label}` },
  async run({ ctx, input }) {
    const writes = (input.artifacts ?? []).map((a) => ({
      name: confineArtifactName(a.name),
      content: a.content,
    }));
    for (const [i, w] of writes.entries()) {
      if (!isFreelyWritable(w.name)) {
        throw invalidArg(
          `artifacts.${i}.name`,
          `${w.name} is written only through the next-step proposal, not by a checkpoint`,
          sentence(
            `${use(ctx, 'hai_propose_next_step', 'propose it')}; ${
              ctx.holds('hai_accept_next_step')
                ? 'accept it with hai_accept_next_step once the owner approved'
                : `${whoDoes('hai_accept_next_step')} accepts it with the owner’s approval`
            }`,
          ),
        );
      }
    }
    const seen = new Set<string>();
    for (const [i, w] of writes.entries()) {
      if (seen.has(w.name)) throw invalidArg(`artifacts.${i}.name`, `${w.name} is named twice`);
      seen.add(w.name);
    }
    const argsSha256 = sha256Hex(stableStringify({ summary: input.summary, artifacts: writes }));
    const hashes = writes.map((w) => sha256Hex(w.content));
    return ctx.db.transaction(async (tx) => {
      await loadProject(tx, ctx, input.project_id, true);
      const [existing] = await tx
        .select()
        .from(haiCheckpoints)
        .where(and(eq(haiCheckpoints.projectId, input.project_id), eq(haiCheckpoints.label, input.label)));
      if (existing !== undefined) {
        if (existing.argsSha256 !== argsSha256) {
          throw new ToolError(
            'idempotency_key_reuse',
            `Checkpoint "${input.label}" already exists with different content`,
            {
              details: { key: `${input.project_id}:${input.label}`, checkpoint_id: existing.id },
              hint: 'Use a new label for a new checkpoint.',
            },
          );
        }
        return ok(
          {
            checkpoint: {
              id: existing.id,
              label: existing.label,
              written: existing.written,
              artifacts: existing.artifacts,
              created_at: existing.createdAt.toISOString(),
            },
            created: false,
          },
          `Checkpoint ${existing.label} already recorded`,
        );
      }
      const written: string[] = [];
      for (const [i, w] of writes.entries()) {
        const version = await writeArtifactIfChanged(
          tx,
          ctx,
          input.project_id,
          w.name,
          w.content,
          hashes[i] as string,
        );
        if (version !== null) written.push(w.name);
      }
      const artifacts = await latestVersions(tx, input.project_id);
      const id = crypto.randomUUID();
      const now = ctx.now();
      await tx.insert(haiCheckpoints).values({
        id,
        projectId: input.project_id,
        label: input.label,
        summary: input.summary,
        artifacts,
        written,
        argsSha256,
        createdBy: ctx.agent,
        createdAt: now,
      });
      return ok(
        {
          checkpoint: { id, label: input.label, written, artifacts, created_at: now.toISOString() },
          created: true,
        },
        `Checkpoint ${input.label} recorded${written.length > 0 ? ` (wrote ${written.join(', ')})` : ''}`,
      );
    });
  },
});
