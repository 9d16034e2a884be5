// The context items the precedent library and the style corpus give a block: the precedents pinned to its
// section, the approved holdings of the documents it cites or pins, and the closest examples of the same part
// from the chair's past decisions (same practice area and outcome first, then the most words in common).
import { and, asc, eq, inArray, isNull } from '../db/orm.ts';
import { cases } from '../db/schema/cases.ts';
import { documents } from '../db/schema/documents.ts';
import type { BlockKind } from '../db/schema/drafting.ts';
import { casePrecedents, type StylePart, styleEnrichments, styleSegments } from '../db/schema/holdings.ts';
import { decisionMetadata } from '../db/schema/precedents.ts';
import type { Db } from '../db/types.ts';
import { provenanceOf } from '../extractors/provenance.ts';
import { approvedHoldings } from '../halacha/approved.ts';
import { normalizeHebrew, tokens } from '../hebrew/text.ts';
import { citationKey } from '../legal/proceedings.ts';
import { resolveKeys } from '../precedents/resolve.ts';
import { STOP_WORDS } from '../search/normalize.ts';

/** Style examples served per block: enough to see the chair's manner, few enough to read. */
export const MAX_STYLE_EXAMPLES = 5;
const MAX_PRECEDENTS = 200;
/** Style segments of one part read to rank (the corpus is the chair's decisions: hundreds, not more). */
const MAX_STYLE_CANDIDATES = 2000;

export interface LibraryItem {
  section: 'precedent' | 'approved_holding' | 'style_example';
  id: string;
  title: string | null;
  text: string;
  party: string | null;
  claim_ids: string[];
  source: ReturnType<typeof provenanceOf> | null;
}

const PART: Record<BlockKind, StylePart> = {
  header: 'header',
  background: 'background',
  appellant_claims: 'claims',
  respondent_claims: 'claims',
  discussion: 'discussion',
  outcome: 'outcome',
  costs: 'outcome',
  signature: 'signatures',
};

const sectionKey = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * Precedents pinned to this block's section: the section named as the block's key, its title, or its kind
 * ("discussion" pins to every discussion block).
 */
export async function precedentItems(
  db: Db,
  caseId: string,
  block: {
    key: string;
    kind: BlockKind;
    title: string | null;
    citations: readonly { text: string; number?: string | undefined }[];
  },
  cut: (t: string) => string,
): Promise<LibraryItem[]> {
  const sections = [block.key, block.kind, block.title ?? ''].filter((s) => s !== '').map(sectionKey);
  const pinned = await db
    .select()
    .from(casePrecedents)
    .where(
      and(
        eq(casePrecedents.caseId, caseId),
        isNull(casePrecedents.detachedAt),
        inArray(casePrecedents.sectionKey, [...new Set(sections)]),
      ),
    )
    .orderBy(asc(casePrecedents.seq))
    .limit(MAX_PRECEDENTS);
  // A block's citation has the key draft_validate checks it by: its number, else its text.
  const citedKeys = block.citations.map((c) => citationKey(c.number ?? c.text));
  const byNumber = await resolveKeys(db, [...pinned.map((p) => p.citationKey), ...citedKeys]);
  const items: LibraryItem[] = pinned.map((p) => ({
    section: 'precedent',
    id: p.id,
    title: `${p.citation}${p.page === null ? '' : ` · עמ' ${p.page}`}`,
    text: cut(p.quote),
    party: null,
    claim_ids: [],
    source: null,
  }));
  const docIds = [
    ...new Set([
      ...pinned.map((p) => p.documentId ?? byNumber.get(p.citationKey)),
      ...citedKeys.map((k) => byNumber.get(k)),
    ]),
  ].filter((d): d is string => d !== undefined);
  const held = await approvedHoldings(db, docIds);
  for (const id of docIds)
    for (const h of held.get(id) ?? [])
      items.push({
        section: 'approved_holding',
        id: h.halacha_id,
        title: h.topic,
        text: cut(h.text),
        party: null,
        claim_ids: [],
        source: {
          document_id: id,
          page: h.page,
          start: h.start,
          end: h.end,
          text: h.extracted_text,
          extractor_version: 'halacha',
        },
      });
  return items;
}

const words = (t: string) =>
  new Set(tokens(normalizeHebrew(t)).filter((w) => w.length > 1 && !STOP_WORDS.has(w)));

/**
 * The closest examples of the block's part in the enriched style corpus: same practice area, then same outcome,
 * then the share of the query's words the example has (the query: the block's text, else its title and the
 * case's parties).
 */
export async function styleItems(
  db: Db,
  caseId: string,
  kind: BlockKind,
  query: string,
  cut: (t: string) => string,
): Promise<LibraryItem[]> {
  const [c] = await db
    .select({ practiceArea: cases.practiceArea, outcome: cases.outcome })
    .from(cases)
    .where(eq(cases.id, caseId));
  const rows = await db
    .select({ s: styleSegments, outcome: styleEnrichments.outcome, area: decisionMetadata.practiceArea })
    .from(styleSegments)
    .innerJoin(styleEnrichments, eq(styleEnrichments.documentId, styleSegments.documentId))
    .innerJoin(documents, eq(documents.id, styleSegments.documentId))
    .leftJoin(decisionMetadata, eq(decisionMetadata.documentId, styleSegments.documentId))
    .where(and(eq(styleSegments.part, PART[kind]), eq(documents.corpus, 'style')))
    .orderBy(asc(styleSegments.documentId), asc(styleSegments.position))
    .limit(MAX_STYLE_CANDIDATES);
  // A part over two pages is several segments: one example per document and part, its segments joined.
  const byDoc = new Map<string, { first: (typeof rows)[number]; text: string }>();
  for (const r of rows) {
    const seen = byDoc.get(r.s.documentId);
    if (seen === undefined) byDoc.set(r.s.documentId, { first: r, text: r.s.text });
    else seen.text += `\n${r.s.text}`;
  }
  const area = c?.practiceArea ?? null;
  const outcome = c?.outcome ?? null;
  const q = words(query);
  const scored = [...byDoc.values()].map((e) => {
    const w = words(e.text);
    let common = 0;
    for (const x of q) if (w.has(x)) common++;
    return {
      e,
      rank: [
        area !== null && e.first.area === area ? 1 : 0,
        outcome !== null && e.first.outcome === outcome ? 1 : 0,
        q.size === 0 ? 0 : common / q.size,
      ],
    };
  });
  scored.sort((a, b) => {
    for (let i = 0; i < 3; i++) {
      const d = (b.rank[i] ?? 0) - (a.rank[i] ?? 0);
      if (d !== 0) return d;
    }
    return a.e.first.s.documentId.localeCompare(b.e.first.s.documentId);
  });
  return scored.slice(0, MAX_STYLE_EXAMPLES).map(({ e, rank }) => ({
    section: 'style_example',
    id: e.first.s.id,
    title: [
      e.first.s.heading ?? e.first.s.part,
      e.first.area,
      e.first.outcome,
      `${Math.round(100 * (rank[2] ?? 0))}% words in common`,
    ]
      .filter(Boolean)
      .join(' · '),
    text: cut(e.text),
    party: null,
    claim_ids: [],
    source: provenanceOf(e.first.s),
  }));
}
