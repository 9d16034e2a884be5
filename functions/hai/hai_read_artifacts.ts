import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { empty, ok } from '../../src/contract/envelope.ts';
import { invalidArg } from '../../src/contract/errors.ts';
import { and, eq, inArray, sql } from '../../src/db/orm.ts';
import { haiArtifacts } from '../../src/db/schema/hai.ts';
import { confineArtifactName, latestVersions } from '../../src/governance/artifacts.ts';
import { loadProject, projectIdInput } from '../../src/governance/projects.ts';

/** How many names one call reads, and how many artifacts the index shows. */
const MAX_NAMES = 20;
const INDEX_SHOWN = 200;

export const hai_read_artifacts = defineTool({
  name: 'hai_read_artifacts',
  title: 'Read a project’s run-contract artifacts',
  description:
    'Reads a project’s run-contract artifacts (PROJECT_STATE.md, NEXT_STEP.md, …): with names their ' +
    'latest text (or one name’s given version), without names the index. Names, never paths (else ' +
    'path_outside_root).',
  input: {
    project_id: projectIdInput,
    names: z
      .array(z.string().min(1).max(300))
      .min(1)
      .max(MAX_NAMES)
      .optional()
      .describe('Artifact names, e.g. ["BRIEFING.md"]; omit for the index'),
    version: z.number().int().min(1).optional().describe('A version of a single name (default: the latest)'),
  },
  output: z.object({
    project_id: z.string().describe('The project'),
    artifacts: z
      .array(
        z.object({
          name: z.string(),
          version: z.int().min(1).describe('The version read, or in the index the latest'),
          content: z.string().optional().describe('The text (Markdown); absent in the index'),
          sha256: z.string().optional().describe('SHA-256 of the text; absent in the index'),
          written_by: z
            .string()
            .optional()
            .describe('The agent that wrote this version; absent in the index'),
          written_at: z.iso.datetime().optional().describe('When it was written; absent in the index'),
        }),
      )
      .max(INDEX_SHOWN)
      .describe(
        `With names: the ones that exist, in the order asked. Without: the index by name (the first ${INDEX_SHOWN})`,
      ),
    missing: z
      .array(z.string())
      .max(MAX_NAMES)
      .optional()
      .describe('With names: the names that have no version (yet)'),
    truncated: z
      .boolean()
      .optional()
      .describe(
        `Index only: true when the project has more than ${INDEX_SHOWN} artifacts (read the rest by name)`,
      ),
  }),
  mutates: false,
  async run({ ctx, input }) {
    const names = input.names?.map(confineArtifactName);
    if (input.version !== undefined && names?.length !== 1) {
      throw invalidArg('version', 'give exactly one name with a version');
    }
    await loadProject(ctx.db, ctx, input.project_id);
    if (names === undefined) {
      const all = Object.entries(await latestVersions(ctx.db, input.project_id))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, version]) => ({ name, version }));
      const index = {
        project_id: input.project_id,
        artifacts: all.slice(0, INDEX_SHOWN),
        truncated: all.length > INDEX_SHOWN,
      };
      return all.length === 0 ? empty(index, 'The project has no artifacts yet') : ok(index);
    }
    const rows = await ctx.db
      .select()
      .from(haiArtifacts)
      .where(
        and(
          eq(haiArtifacts.projectId, input.project_id),
          inArray(haiArtifacts.name, names),
          input.version === undefined
            ? sql`${haiArtifacts.version} = (select max(a.version) from hai_artifacts a where a.project_id = ${haiArtifacts.projectId} and a.name = ${haiArtifacts.name})`
            : eq(haiArtifacts.version, input.version),
        ),
      );
    const byName = new Map(rows.map((r) => [r.name, r]));
    const artifacts = names.flatMap((n) => {
      const r = byName.get(n);
      return r === undefined
        ? []
        : [
            {
              name: r.name,
              version: r.version,
              content: r.content,
              sha256: r.sha256,
              written_by: r.writtenBy,
              written_at: r.writtenAt.toISOString(),
            },
          ];
    });
    const missing = names.filter((n) => !byName.has(n));
    const data = { project_id: input.project_id, artifacts, missing };
    return artifacts.length === 0 ? empty(data, 'None of these artifacts exists yet') : ok(data);
  },
});
