// The references of a block's context by relevance (docs/drafting.md "Context"): the case's own parcels,
// plans, statutes and sections — those the parties' filings and the decision under review name, and those an
// appraisal names again or on its opening pages (what it is about) — come first; what an appraisal names once
// in passing (the comparables' and third parties' parcels of a long appraisal) comes last, summarised in one
// item per kind with its count when there are many. One item per reference key: its first mention stands for
// the rest.
import { asc, eq } from '../db/orm.ts';
import { caseReferences, type ReferenceKind } from '../db/schema/analysis.ts';
import { type DocumentRole, documents } from '../db/schema/documents.ts';
import type { Db } from '../db/types.ts';
import { provenanceOf } from '../extractors/provenance.ts';

/** Documents whose every reference is the case's own: the parties' filings and the decision under review. */
const FILINGS: ReadonlySet<DocumentRole> = new Set(['appeal', 'response', 'decision']);
/** An appraisal's opening page says what it is about (the subject parcel and plan). */
const OPENING_PAGES = 1;
/** Statutes and their sections are the law of the case wherever they are named. */
const LAW: ReadonlySet<ReferenceKind> = new Set(['statute', 'section', 'regulation']);
const KIND_ORDER: readonly ReferenceKind[] = ['parcel', 'plan', 'statute', 'section', 'regulation'];
/** The mentions read (a case of many long appraisals has more; the first are the most relevant). */
const MAX_MENTIONS = 20_000;
/** The case's own references listed one by one; past it, they join the rest. */
export const MAX_OWN_REFERENCES = 60;
/** More than this many passing references of one kind are one summary item. */
export const SUMMARY_OVER = 5;
/** A summary item names this many of the keys it stands for. */
const SUMMARY_KEYS = 10;

/** A reference item of the context (context.ts's item, section "reference"). */
export interface ReferenceItem {
  section: 'reference';
  id: string;
  title: string | null;
  text: string;
  party: string | null;
  claim_ids: string[];
  source: ReturnType<typeof provenanceOf> | null;
}

interface Ranked {
  kind: ReferenceKind;
  key: string;
  first: typeof caseReferences.$inferSelect;
  mentions: number;
  documents: number;
  tier: 0 | 1 | 2;
}

/** Where a reference stands: 0 named by a filing, or law; 1 named again or up front by an appraisal; 2 in passing. */
function tierOf(
  kind: ReferenceKind,
  rows: readonly { role: DocumentRole | null; page: number }[],
  mentions: number,
): 0 | 1 | 2 {
  if (rows.some((r) => r.role !== null && FILINGS.has(r.role))) return 0;
  if (LAW.has(kind)) return 0;
  if (mentions > 1 || rows.some((r) => r.page <= OPENING_PAGES)) return 1;
  return 2;
}

/** The case's references in order of relevance: the case's own (`own`), then the rest with summaries. */
export async function referenceItems(
  db: Db,
  caseId: string,
  cut: (t: string) => string,
): Promise<{ own: ReferenceItem[]; rest: ReferenceItem[] }> {
  const rows = await db
    .select({ r: caseReferences, role: documents.role })
    .from(caseReferences)
    .leftJoin(documents, eq(documents.id, caseReferences.documentId))
    .where(eq(caseReferences.caseId, caseId))
    .orderBy(asc(caseReferences.page), asc(caseReferences.start), asc(caseReferences.id))
    .limit(MAX_MENTIONS);
  const byKey = new Map<string, { kind: ReferenceKind; key: string; rows: typeof rows }>();
  for (const row of rows) {
    const k = `${row.r.kind}:${row.r.key}`;
    const entry = byKey.get(k) ?? { kind: row.r.kind, key: row.r.key, rows: [] };
    entry.rows.push(row);
    byKey.set(k, entry);
  }
  const ranked: Ranked[] = [...byKey.values()].map((e) => {
    const docs = new Set(e.rows.map((x) => x.r.documentId));
    const mentions = e.rows.length;
    return {
      kind: e.kind,
      key: e.key,
      // The first mention in a filing, else the first anywhere, stands for the reference.
      first: (e.rows.find((x) => x.role !== null && FILINGS.has(x.role)) ?? e.rows[0])?.r as Ranked['first'],
      mentions,
      documents: docs.size,
      tier: tierOf(
        e.kind,
        e.rows.map((x) => ({ role: x.role, page: x.r.page })),
        mentions,
      ),
    };
  });
  ranked.sort(
    (a, b) =>
      a.tier - b.tier ||
      b.documents - a.documents ||
      b.mentions - a.mentions ||
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
      a.first.page - b.first.page ||
      a.first.start - b.first.start,
  );
  const item = (r: Ranked): ReferenceItem => ({
    section: 'reference',
    id: r.first.id,
    title: r.kind,
    text: cut(r.key),
    party: null,
    claim_ids: [],
    source: provenanceOf(r.first),
  });
  const ownRanked = ranked.filter((r) => r.tier < 2).slice(0, MAX_OWN_REFERENCES);
  const listed = new Set(ownRanked);
  const passing = ranked.filter((r) => !listed.has(r));
  const rest: ReferenceItem[] = [];
  for (const kind of KIND_ORDER) {
    const of = passing.filter((r) => r.kind === kind);
    if (of.length <= SUMMARY_OVER) {
      rest.push(...of.map(item));
      continue;
    }
    const keys = of.slice(0, SUMMARY_KEYS).map((r) => r.key);
    rest.push({
      section: 'reference',
      id: `summary:${kind}`,
      title: `${kind} · summary`,
      text: cut(
        `${of.length} ${kind} references named in passing (an appraisal's comparables, third parties): ${keys.join(', ')}${of.length > keys.length ? ', …' : ''}`,
      ),
      party: null,
      claim_ids: [],
      source: null,
    });
  }
  return { own: ownRanked.map(item), rest };
}
