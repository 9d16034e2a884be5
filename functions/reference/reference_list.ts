import * as z from 'zod';
import { canonicalKey } from '../../src/analysis/keys.ts';
import { loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { invalidArg } from '../../src/contract/errors.ts';
import { pagedOutput } from '../../src/contract/limits.ts';
import { and, asc, eq, inArray, type SQL, sql } from '../../src/db/orm.ts';
import { caseReferences, referenceKinds } from '../../src/db/schema/analysis.ts';
import { documents } from '../../src/db/schema/documents.ts';
import { loadDocument } from '../../src/documents/views.ts';
import { provenanceOf, provenanceOutput } from '../../src/extractors/provenance.ts';

/** Occurrences shown per key; `count` says how many there are. */
const MAX_OCCURRENCES = 50;

export const reference_list = defineTool({
  name: 'reference_list',
  title: 'References by key',
  description:
    'What a case or document cites, one item per canonical key (statute, section, regulation, plan, ' +
    'parcel) with its count and every occurrence; key takes any spelling.',
  input: {
    case_id: z.uuid().optional().describe('This case’s documents'),
    document_id: z.uuid().optional().describe('Or one document'),
    kind: z.enum(referenceKinds).optional().describe('Only this kind'),
    key: z.string().trim().min(1).max(300).optional().describe('One reference, as written or as listed'),
  },
  output: pagedOutput(
    z.object({
      kind: z.enum(referenceKinds),
      key: z.string().describe('The canonical key'),
      count: z.int().describe('Occurrences in all'),
      occurrences: z.array(provenanceOutput).max(MAX_OCCURRENCES).describe('Where it is cited, in order'),
    }),
  ),
  mutates: false,
  pages: { key: z.tuple([z.string(), z.string()]) },
  async run({ ctx, input, page }) {
    if ((input.case_id === undefined) === (input.document_id === undefined)) {
      throw invalidArg('case_id', 'give case_id or document_id, exactly one');
    }
    const where: (SQL | undefined)[] = [];
    if (input.case_id !== undefined) {
      await loadLiveCase(ctx.db, input.case_id);
      where.push(eq(caseReferences.caseId, input.case_id));
    } else {
      const doc = await loadDocument(ctx.db, input.document_id as string);
      where.push(eq(caseReferences.documentId, doc.id));
    }
    if (input.kind !== undefined) where.push(eq(caseReferences.kind, input.kind));
    if (input.key !== undefined) where.push(eq(caseReferences.key, canonicalKey(input.key)));
    const groupsWhere = [...where];
    if (page.after !== undefined) {
      groupsWhere.push(
        sql`(${caseReferences.kind}, ${caseReferences.key}) > (${page.after[0]}, ${page.after[1]})`,
      );
    }
    const groups = await ctx.db
      .select({ kind: caseReferences.kind, key: caseReferences.key, count: sql<number>`count(*)::int` })
      .from(caseReferences)
      .where(and(...groupsWhere))
      .groupBy(caseReferences.kind, caseReferences.key)
      .orderBy(asc(caseReferences.kind), asc(caseReferences.key))
      .limit(page.limit + 1);
    const shown = groups.slice(0, page.limit);
    const rows =
      shown.length === 0
        ? []
        : await ctx.db
            .select({ ref: caseReferences })
            .from(caseReferences)
            .innerJoin(documents, eq(documents.id, caseReferences.documentId))
            .where(
              and(
                ...where,
                inArray(
                  sql`(${caseReferences.kind}, ${caseReferences.key})`,
                  shown.map((g) => sql`(${g.kind}, ${g.key})`),
                ),
              ),
            )
            .orderBy(
              asc(documents.createdAt),
              asc(documents.id),
              asc(caseReferences.page),
              asc(caseReferences.start),
            );
    const byKey = new Map<string, ReturnType<typeof provenanceOf>[]>();
    for (const { ref } of rows) {
      const list = byKey.get(`${ref.kind}\u0000${ref.key}`) ?? [];
      if (list.length < MAX_OCCURRENCES) list.push(provenanceOf(ref));
      byKey.set(`${ref.kind}\u0000${ref.key}`, list);
    }
    return page.from(
      groups,
      (g) => [g.kind, g.key] as const,
      (g) => ({ ...g, occurrences: byKey.get(`${g.kind}\u0000${g.key}`) ?? [] }),
    );
  },
});
