// What the library and internal-decision tools share: proceeding numbers as lookups take them (any written
// form, up to 20 in one string), a ruling's or decision's metadata with each field's source, its citation
// counts, its holdings as the owner approved them, and the negative-treatment flag naming the later document.

import * as z from 'zod';
import { invalidArg } from '../contract/errors.ts';
import { aliasedTable, and, eq, inArray, isNull, or, sql } from '../db/orm.ts';
import { cases } from '../db/schema/cases.ts';
import { type DocumentRow, documents } from '../db/schema/documents.ts';
import { citations, type DecisionMetadataRow, decisionMetadata } from '../db/schema/precedents.ts';
import {
  type MetadataField,
  metadataFields,
  negativeTreatments,
  treatments,
} from '../db/schema/vocabulary.ts';
import type { Db } from '../db/types.ts';
import { provenanceOutput } from '../extractors/provenance.ts';
import { approvedHoldings, approvedHoldingsOutput } from '../halacha/approved.ts';
import { MAX_PROCEEDINGS, splitProceedings } from '../legal/proceedings.ts';
import { resolveCited } from './resolve.ts';

export const numbersInput = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .describe(`Number(s), any written form, ≤ ${MAX_PROCEEDINGS}`);

/** The keys of pasted proceeding numbers; none read, or more than 20, is invalid_args. */
export function numberKeys(field: string, text: string): string[] {
  const { keys, unread } = splitProceedings(text);
  if (keys.length === 0) {
    throw invalidArg(
      field,
      `no proceeding number read in «${text.slice(0, 80)}»`,
      'Write e.g. עע"מ 9001/19 or ערר 1021/22.',
    );
  }
  if (keys.length > MAX_PROCEEDINGS) {
    throw invalidArg(field, `${keys.length} numbers; at most ${MAX_PROCEEDINGS} in one call`);
  }
  if (unread.length > 0) throw invalidArg(field, `not a proceeding number: «${unread[0]?.slice(0, 80)}»`);
  return keys;
}

const fieldOutput = z.object({
  value: z.union([z.string(), z.array(z.string()).max(50)]).nullable(),
  source: z.enum(['given', 'extracted']).nullable().describe('given by the uploader, or extracted by rule'),
  provenance: provenanceOutput.nullable().describe('Where an extracted value was read'),
});

export const decisionOutput = z.object({
  document_id: z.uuid(),
  title: z.string(),
  status: z.string().describe('The text: pending, extracting, ready or failed'),
  metadata: z.enum(['extracted', 'pending']).describe('pending: not read yet (the given fields only)'),
  fields: z
    .object(
      Object.fromEntries(metadataFields.map((f) => [f, fieldOutput])) as Record<
        MetadataField,
        typeof fieldOutput
      >,
    )
    .describe(
      'court (or committee), proceeding, number, decision_date, judges, parties, outcome, prior_outcome (of the decision under review), practice_area',
    ),
  citations: z.object({
    outgoing: z.int(),
    unresolved_outgoing: z.int().describe('Cited but not in the library'),
    incoming: z.int(),
  }),
  holdings: approvedHoldingsOutput,
  negative_treatment: z
    .array(
      z.object({
        document_id: z.uuid(),
        title: z.string(),
        number: z.string().nullable(),
        decision_date: z.string().nullable(),
        treatment: z.enum(treatments),
        cue: z.string().nullable(),
      }),
    )
    .max(50)
    .describe('Later documents that overrule, reverse or criticise this one'),
});
export type DecisionView = z.output<typeof decisionOutput>;

/** A citing document is reachable: not a case document, or one of a live case. */
export const liveCiting = (table: typeof documents = documents) =>
  or(
    isNull(table.caseId),
    sql`exists (select 1 from ${cases} where ${cases.id} = ${table.caseId} and ${cases.deletedAt} is null)`,
  );

const given = (doc: DocumentRow): Partial<Record<MetadataField, string | null>> => ({
  court: doc.corpus === 'internal' ? doc.committee : doc.court,
  number: doc.number,
  decision_date: doc.decisionDate,
  parties: doc.parties,
});

const META_VALUE: Record<MetadataField, (m: DecisionMetadataRow) => string | string[] | null> = {
  court: (m) => m.court,
  proceeding: (m) => m.proceeding,
  number: (m) => m.number,
  decision_date: (m) => m.decisionDate,
  judges: (m) => m.judges,
  parties: (m) => m.parties,
  outcome: (m) => m.outcome,
  prior_outcome: (m) => m.priorOutcome,
  practice_area: (m) => m.practiceArea,
};

/** The view of documents of one corpus (in the order given), with metadata, counts and negative treatment. */
export async function decisionViews(db: Db, docs: readonly DocumentRow[]): Promise<DecisionView[]> {
  if (docs.length === 0) return [];
  const ids = docs.map((d) => d.id);
  const metas = await db.select().from(decisionMetadata).where(inArray(decisionMetadata.documentId, ids));
  const metaOf = new Map(metas.map((m) => [m.documentId, m]));
  const citing = aliasedTable(documents, 'citing');
  const outgoing = await db
    .select({
      id: citations.documentId,
      all: sql<number>`count(*)::int`,
      unresolved: sql<number>`(count(*) filter (where ${citations.citedDocumentId} is null))::int`,
    })
    .from(citations)
    .where(inArray(citations.documentId, ids))
    .groupBy(citations.documentId);
  const incoming = await db
    .select({ id: citations.citedDocumentId, all: sql<number>`count(*)::int` })
    .from(citations)
    .innerJoin(citing, eq(citing.id, citations.documentId))
    .where(and(inArray(citations.citedDocumentId, ids), liveCiting(citing)))
    .groupBy(citations.citedDocumentId);
  const approved = await approvedHoldings(db, ids);
  const citingMeta = aliasedTable(decisionMetadata, 'citing_meta');
  const negative = await db
    .select({
      cited: citations.citedDocumentId,
      document_id: citing.id,
      title: citing.title,
      number: sql<string | null>`coalesce(${citingMeta.number}, ${citing.number})`,
      decision_date: sql<string | null>`coalesce(${citingMeta.decisionDate}, ${citing.decisionDate})::text`,
      treatment: citations.treatment,
      cue: citations.cue,
    })
    .from(citations)
    .innerJoin(citing, eq(citing.id, citations.documentId))
    .leftJoin(citingMeta, eq(citingMeta.documentId, citing.id))
    .where(
      and(
        inArray(citations.citedDocumentId, ids),
        inArray(citations.treatment, [...negativeTreatments]),
        // Authorities only: a party's brief that criticises a ruling does not put it in doubt.
        inArray(citing.corpus, ['library', 'internal']),
      ),
    )
    .orderBy(citing.createdAt, citations.id)
    .limit(50 * ids.length);
  return docs.map((doc) => {
    const meta = metaOf.get(doc.id);
    const giv = given(doc);
    const fields = Object.fromEntries(
      metadataFields.map((f) => {
        const source = meta?.sources[f] ?? (giv[f] ? 'given' : null);
        const value = meta !== undefined ? META_VALUE[f](meta) : (giv[f] ?? null);
        return [f, { value, source, provenance: meta?.provenance[f] ?? null }];
      }),
    ) as DecisionView['fields'];
    const out = outgoing.find((o) => o.id === doc.id);
    const own = fields.decision_date.value;
    const later = negative.filter((n) => {
      if (n.cited !== doc.id) return false;
      // Only a later (or undated) document speaks against it; an earlier one cannot overrule it.
      return typeof own !== 'string' || n.decision_date === null || n.decision_date >= own;
    });
    return {
      document_id: doc.id,
      title: doc.title,
      status: doc.status,
      metadata: meta === undefined ? 'pending' : 'extracted',
      fields,
      citations: {
        outgoing: out?.all ?? 0,
        unresolved_outgoing: out?.unresolved ?? 0,
        incoming: incoming.find((i) => i.id === doc.id)?.all ?? 0,
      },
      holdings: approved.get(doc.id) ?? [],
      negative_treatment: later.slice(0, 50).map(({ cited: _c, ...n }) => n),
    };
  });
}

/** The documents of a corpus with these number keys (as every cited number resolves), oldest first. */
export async function documentsByNumbers(
  db: Db,
  corpus: 'library' | 'internal',
  keys: readonly string[],
): Promise<{ key: string; doc: DocumentRow }[]> {
  if (keys.length === 0) return [];
  const known = await resolveCited(db, keys);
  const keyOf = new Map<string, string>();
  for (const [key, docs] of known)
    for (const d of docs) if (d.corpus === corpus && !keyOf.has(d.id)) keyOf.set(d.id, key);
  if (keyOf.size === 0) return [];
  const rows = await db
    .select()
    .from(documents)
    .where(inArray(documents.id, [...keyOf.keys()]))
    .orderBy(documents.createdAt, documents.id);
  return rows.map((doc) => ({ key: keyOf.get(doc.id) ?? '', doc }));
}
