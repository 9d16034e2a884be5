import * as z from 'zod';
import {
  argumentOutput,
  excerpt,
  MAX_ARGUMENTS,
  MAX_UNASSIGNED,
  mapArguments,
  mapVersion,
  unassignedClaims,
  unassignedOutput,
} from '../../src/analysis/argument_maps.ts';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { empty, ok } from '../../src/contract/envelope.ts';
import { ToolError } from '../../src/contract/errors.ts';
import { offsetPages, pagedOutput } from '../../src/contract/limits.ts';

export const argument_list = defineTool({
  name: 'argument_list',
  title: 'Argument map',
  description:
    'A case’s argument map, latest or a named version: each argument with party, summary and claims, ' +
    'and the claims in none; empty until argument_aggregate stores one.',
  input: {
    case_id: caseIdInput,
    version: z.int().min(1).max(1_000_000).optional().describe('A version (default: the latest)'),
  },
  output: pagedOutput(argumentOutput, {
    version: z.int().nullable(),
    created_by: z.string().nullable(),
    unassigned: z.array(unassignedOutput).max(MAX_UNASSIGNED).describe('Claims in no argument'),
    unassigned_total: z.int(),
  }),
  mutates: false,
  pages: offsetPages(MAX_ARGUMENTS),
  async run({ ctx, input, page }) {
    await loadLiveCase(ctx.db, input.case_id);
    const map = await mapVersion(ctx.db, input.case_id, input.version);
    if (map === undefined && input.version !== undefined) {
      throw new ToolError('not_found', `The case has no argument map version ${input.version}`, {
        details: { case_id: input.case_id, version: input.version },
        hint: 'Omit version for the latest.',
      });
    }
    const left = await unassignedClaims(ctx.db, input.case_id, map?.id ?? null);
    const unassigned = left.rows.map((r) => ({
      id: r.id,
      party: r.party,
      kind: r.kind,
      excerpt: excerpt(r),
    }));
    if (map === undefined) {
      return empty(
        {
          ...page.of([], null),
          version: null,
          created_by: null,
          unassigned,
          unassigned_total: left.total,
        },
        `No argument map yet; ${left.total} claim(s) to group`,
      );
    }
    const all = await mapArguments(ctx.db, map.id);
    const from = page.after?.[0] ?? 0;
    const next = from + page.limit;
    return ok(
      {
        ...page.of(all.slice(from, next), next < all.length ? ([next] as const) : null),
        version: map.version,
        created_by: map.createdBy,
        unassigned,
        unassigned_total: left.total,
      },
      `Version ${map.version}: ${all.length} argument(s), ${left.total} claim(s) unassigned`,
    );
  },
});
