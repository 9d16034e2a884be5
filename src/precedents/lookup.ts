// library_get / internal_decision_get and library_list / internal_decision_list: one corpus each, the same
// shape. A get takes a document id or up to 20 proceeding numbers; a list filters by court or committee, year,
// proceeding, outcome and practice area, sorted by decision date (stable: then by id), paged.

import * as z from 'zod';
import { outcomeInput, outcomeOf } from '../cases/outcomes.ts';
import { practiceAreaInput, practiceAreaOf } from '../cases/practice_areas.ts';
import type { ToolContext } from '../contract/define.ts';
import { invalidArg } from '../contract/errors.ts';
import type { PageRequest } from '../contract/limits.ts';
import { and, asc, desc, eq, gte, ilike, lte, type SQL, sql } from '../db/orm.ts';
import { documents } from '../db/schema/documents.ts';
import { decisionMetadata } from '../db/schema/precedents.ts';
import { loadDocument } from '../documents/views.ts';
import { proceedingKind } from '../legal/proceedings.ts';
import { decisionOutput, decisionViews, documentsByNumbers, numberKeys, numbersInput } from './views.ts';

type Corpus = 'library' | 'internal';
const OTHER: Record<Corpus, string> = { library: 'internal_decision_get', internal: 'library_get' };

export const MAX_GET = 40;

export const getInput = {
  document_id: z.uuid().optional().describe('The document'),
  numbers: numbersInput.optional().describe('Or its number(s), any form, ≤ 20'),
};

export const getOutput = z.object({
  items: z.array(decisionOutput).max(MAX_GET),
  not_found: z.array(z.string()).max(20).describe('Numbers with no document here'),
});

export async function getDecisions(
  ctx: ToolContext,
  corpus: Corpus,
  input: { document_id?: string | undefined; numbers?: string | undefined },
): Promise<z.input<typeof getOutput>> {
  if ((input.document_id === undefined) === (input.numbers === undefined)) {
    throw invalidArg('document_id', 'give document_id or numbers, exactly one');
  }
  if (input.document_id !== undefined) {
    const doc = await loadDocument(ctx.db, input.document_id);
    if (doc.corpus !== corpus) {
      const tool = ctx.holds(OTHER[corpus]) ? OTHER[corpus] : 'the tool of its corpus';
      throw invalidArg('document_id', `this is a ${doc.corpus} document, not ${corpus}`, `Use ${tool}.`);
    }
    return { items: await decisionViews(ctx.db, [doc]), not_found: [] };
  }
  const keys = numberKeys('numbers', input.numbers ?? '');
  const found = await documentsByNumbers(ctx.db, corpus, keys);
  return {
    items: await decisionViews(
      ctx.db,
      found.slice(0, MAX_GET).map((f) => f.doc),
    ),
    not_found: keys.filter((k) => !found.some((f) => f.key === k)),
  };
}

export const listInput = (courtWord: string) => ({
  court: z.string().trim().min(2).max(200).optional().describe(`${courtWord} contains`),
  year_from: z.int().min(1948).max(2100).optional().describe('From year'),
  year_to: z.int().min(1948).max(2100).optional().describe('To year'),
  proceeding: z.string().trim().min(2).max(10).optional().describe('e.g. עע"מ, ערר'),
  outcome: outcomeInput.optional(),
  practice_area: practiceAreaInput.optional(),
  sort: z.enum(['date_desc', 'date_asc']).optional().describe('Default date_desc'),
});

export const listItem = z.object({
  document_id: z.uuid(),
  title: z.string(),
  number: z.string().nullable(),
  court: z.string().nullable(),
  decision_date: z.string().nullable(),
  parties: z.string().nullable(),
  outcome: z.string().nullable(),
  practice_area: z.string().nullable(),
  metadata: z.enum(['extracted', 'pending']),
});

export const listPages = { key: z.tuple([z.string().max(10), z.uuid()]) };

type ListInput = {
  court?: string | undefined;
  year_from?: number | undefined;
  year_to?: number | undefined;
  proceeding?: string | undefined;
  outcome?: string | undefined;
  practice_area?: string | undefined;
  sort?: 'date_desc' | 'date_asc' | undefined;
};

export async function listDecisions(
  ctx: ToolContext,
  corpus: Corpus,
  input: ListInput,
  page: PageRequest<readonly [string, string]>,
) {
  const m = decisionMetadata;
  const givenCourt = corpus === 'internal' ? documents.committee : documents.court;
  const court = sql<string | null>`coalesce(${m.court}, ${givenCourt})`;
  const date = sql<string | null>`coalesce(${m.decisionDate}, ${documents.decisionDate})`;
  const asc_ = input.sort === 'date_asc';
  // Undated documents last either way: the sort key stands in a far date for them.
  const sortKey = sql<string>`coalesce(${date}::text, ${asc_ ? '9999-12-31' : '0000-01-01'})`;
  const where: (SQL | undefined)[] = [eq(documents.corpus, corpus)];
  if (input.court !== undefined) where.push(ilike(court, `%${input.court.replace(/[%_\\]/g, '\\$&')}%`));
  if (input.year_from !== undefined) where.push(gte(date, `${input.year_from}-01-01`));
  if (input.year_to !== undefined) where.push(lte(date, `${input.year_to}-12-31`));
  if (input.proceeding !== undefined) {
    const kind = proceedingKind(input.proceeding);
    if (kind === null)
      throw invalidArg(
        'proceeding',
        `not a proceeding type: ${input.proceeding}`,
        'e.g. עע"מ, בג"ץ, ע"א, ערר',
      );
    where.push(eq(m.proceeding, kind));
  }
  if (input.outcome !== undefined) where.push(eq(m.outcome, outcomeOf(input.outcome)));
  if (input.practice_area !== undefined) where.push(eq(m.practiceArea, practiceAreaOf(input.practice_area)));
  if (page.after !== undefined) {
    const [d, id] = page.after;
    where.push(
      asc_
        ? sql`(${sortKey}, ${documents.id}) > (${d}, ${id}::uuid)`
        : sql`(${sortKey}, ${documents.id}) < (${d}, ${id}::uuid)`,
    );
  }
  const rows = await ctx.db
    .select({
      doc: documents,
      meta: m.documentId,
      sortKey,
      court,
      date: sql<string | null>`${date}::text`,
      number: sql<string | null>`coalesce(${m.number}, ${documents.number})`,
      parties: sql<string | null>`coalesce(${m.parties}, ${documents.parties})`,
      outcome: m.outcome,
      practiceArea: m.practiceArea,
    })
    .from(documents)
    .leftJoin(m, eq(m.documentId, documents.id))
    .where(and(...where))
    .orderBy(asc_ ? asc(sortKey) : desc(sortKey), asc_ ? asc(documents.id) : desc(documents.id))
    .limit(page.limit + 1);
  return page.from(
    rows,
    (r) => [r.sortKey, r.doc.id] as const,
    (r) => ({
      document_id: r.doc.id,
      title: r.doc.title,
      number: r.number,
      court: r.court,
      decision_date: r.date,
      parties: r.parties,
      outcome: r.outcome,
      practice_area: r.practiceArea,
      metadata: r.meta === null ? ('pending' as const) : ('extracted' as const),
    }),
  );
}
