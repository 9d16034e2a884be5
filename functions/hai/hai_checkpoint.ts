import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { ToolError } from '../../src/contract/errors.ts';
import { sha256Hex, stableStringify } from '../../src/contract/hash.ts';
import { haiCheckpoints } from '../../src/db/schema/hai.ts';
import {
  confineArtifactName,
  isFreelyWritable,
  latestVersions,
  loadProject,
  projectIdInput,
  writeArtifactIfChanged,
} from './_shared.ts';

export const hai_checkpoint = defineTool({
  name: 'hai_checkpoint',
  title: 'Record a checkpoint in the project history',
  description:
    'Records a named checkpoint in the project history: a summary, optionally new versions of run-contract ' +
    'artifacts (PROJECT_STATE.md, CODE_STATE.md, BRIEFING.md, PROMPT.md, INTENT.md, EXECUTION_REPORT_<ID>.md, ' +
    'VALIDATION_REPORT_<ID>.md), and the version of every artifact at that point, so hai_recover can resume ' +
    'from it. NEXT_STEP.md and NEXT_STEP.proposed.md are written only by the proposal tools. The label is ' +
    'the key: the same checkpoint again returns the first (created=false); the same label with other content ' +
    'is idempotency_key_reuse. Nothing is ever deleted; older versions stay readable.',
  input: {
    project_id: projectIdInput,
    label: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/, 'letters, digits, ".", "_", ":" or "-"')
      .describe('A unique name for this checkpoint in the project, e.g. "analysis-done-2026-11-30"'),
    summary: z.string().trim().min(1).max(5000).describe('What was done and what state the work is in'),
    artifacts: z
      .array(
        z.object({
          name: z.string().min(1).max(300).describe('Artifact name, e.g. "PROJECT_STATE.md"'),
          content: z.string().max(100_000).describe('The full new text of the artifact (Markdown)'),
        }),
      )
      .max(10)
      .optional()
      .describe(
        'Artifacts to write at this checkpoint (full text each; unchanged text writes no new version)',
      ),
  },
  mutates: 'write',
  idempotencyKey: (input) => `${input.project_id}:${input.label}`,
  async run({ ctx, input }) {
    const writes = (input.artifacts ?? []).map((a) => ({
      name: confineArtifactName(a.name),
      content: a.content,
    }));
    for (const w of writes) {
      if (!isFreelyWritable(w.name)) {
        throw new ToolError('invalid_args', `${w.name} is written only through the next-step proposal`, {
          details: {
            issues: [{ path: 'artifacts', message: `${w.name} cannot be written by a checkpoint` }],
          },
          hint: 'Use hai_propose_next_step; the owner accepts it with hai_accept_next_step.',
        });
      }
    }
    if (new Set(writes.map((w) => w.name)).size !== writes.length) {
      throw new ToolError('invalid_args', 'An artifact is named twice', {
        details: { issues: [{ path: 'artifacts', message: 'duplicate artifact name' }] },
      });
    }
    const argsSha256 = sha256Hex(stableStringify({ summary: input.summary, artifacts: writes }));
    const hashes = writes.map((w) => sha256Hex(w.content));
    return ctx.db.transaction(async (tx) => {
      await loadProject(tx, input.project_id, true);
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
