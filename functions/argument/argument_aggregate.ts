import * as z from 'zod';
import {
  excerpt,
  MAX_ARGUMENTS,
  MAX_CLAIMS_PER_ARGUMENT,
  MAX_UNASSIGNED,
  mapVersion,
  unassignedClaims,
  unassignedOutput,
} from '../../src/analysis/argument_maps.ts';
import { loadCaseClaims } from '../../src/analysis/views.ts';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { invalidArgs, one, ToolError } from '../../src/contract/errors.ts';
import { sha256Hex, stableStringify } from '../../src/contract/hash.ts';
import { eq } from '../../src/db/orm.ts';
import { argumentClaims, argumentMaps, caseArguments, claimParties } from '../../src/db/schema/analysis.ts';
import { cases } from '../../src/db/schema/cases.ts';

const argumentInput = z.object({
  title: z.string().trim().min(1).max(300).describe('One line'),
  party: z.enum(claimParties),
  claim_ids: z.array(z.uuid()).min(1).max(MAX_CLAIMS_PER_ARGUMENT).describe('Its claims, in order'),
  summary: z.string().trim().min(1).max(4000).optional(),
});

type Grouping = z.output<typeof argumentInput>[];

/** The grouping's canonical form: what makes two calls the same map. */
const groupingHash = (args: Grouping) =>
  sha256Hex(stableStringify(args.map((a) => ({ ...a, summary: a.summary ?? null }))));

export const argument_aggregate = defineTool({
  name: 'argument_aggregate',
  title: 'Group claims into arguments',
  description:
    'Stores your grouping of a case’s claims into legal arguments as its map’s next version (each ' +
    'claim once; none rejected or merged; the latest grouping again is that version). Lists claims ' +
    'left out.',
  input: {
    case_id: caseIdInput,
    arguments: z.array(argumentInput).min(1).max(MAX_ARGUMENTS).describe('In order'),
  },
  output: z.object({
    version: z.int(),
    created: z.boolean().describe('false: the latest version already had this grouping'),
    unassigned: z.array(unassignedOutput).max(MAX_UNASSIGNED).describe('Claims in no argument'),
    unassigned_total: z.int(),
  }),
  mutates: 'write',
  setSemantics: true,
  precheck(input) {
    const seen = new Map<string, string>();
    const issues: { path: string; message: string }[] = [];
    input.arguments.forEach((a, i) => {
      a.claim_ids.forEach((id, j) => {
        const path = `arguments.${i}.claim_ids.${j}`;
        const first = seen.get(id);
        if (first !== undefined) issues.push({ path, message: `claim ${id} is already in ${first}` });
        else seen.set(id, path);
      });
    });
    if (issues.length > 0) throw invalidArgs(issues, 'Put each claim in one argument at most.');
  },
  idempotencyKey: {
    describe: 'case_id + the grouping (the latest version with the same grouping is returned)',
    of: (i) => `${i.case_id}:${groupingHash(i.arguments)}`,
  },
  async run({ ctx, input }) {
    await loadLiveCase(ctx.db, input.case_id);
    const hash = groupingHash(input.arguments);
    const { map, created } = await ctx.db.transaction(async (tx) => {
      // The case row lock orders the versions of one case: concurrent calls write one after another.
      await tx.select({ id: cases.id }).from(cases).where(eq(cases.id, input.case_id)).for('update');
      const latest = await mapVersion(tx, input.case_id);
      if (latest?.contentHash === hash) return { map: latest, created: false };
      const ids = input.arguments.flatMap((a) => a.claim_ids);
      const rows = await loadCaseClaims(tx, input.case_id, ids);
      const closed = rows.filter((r) => r.status === 'rejected' || r.status === 'merged');
      if (closed.length > 0) {
        throw new ToolError('invalid_state', `${closed.length} claim(s) are rejected or merged`, {
          details: { claims: closed.map((r) => ({ id: r.id, status: r.status, merged_into: r.mergedInto })) },
          hint: 'Leave rejected claims out; use the claim a merged one was merged into.',
        });
      }
      const made = one(
        await tx
          .insert(argumentMaps)
          .values({
            id: crypto.randomUUID(),
            caseId: input.case_id,
            version: (latest?.version ?? 0) + 1,
            contentHash: hash,
            createdBy: ctx.agent,
            createdAt: ctx.now(),
          })
          .returning(),
        'argument map insert',
      );
      const args = input.arguments.map((a, position) => ({
        id: crypto.randomUUID(),
        mapId: made.id,
        position,
        title: a.title,
        party: a.party,
        summary: a.summary ?? null,
      }));
      await tx.insert(caseArguments).values(args);
      await tx.insert(argumentClaims).values(
        input.arguments.flatMap((a, i) =>
          a.claim_ids.map((claimId, position) => ({
            mapId: made.id,
            argumentId: args[i]?.id ?? '',
            claimId,
            position,
          })),
        ),
      );
      return { map: made, created: true };
    });
    const left = await unassignedClaims(ctx.db, input.case_id, map.id);
    return ok(
      {
        version: map.version,
        created,
        unassigned: left.rows.map((r) => ({ id: r.id, party: r.party, kind: r.kind, excerpt: excerpt(r) })),
        unassigned_total: left.total,
      },
      `${created ? 'Stored' : 'Already stored as'} version ${map.version}: ${input.arguments.length} argument(s), ${left.total} claim(s) unassigned`,
    );
  },
});
