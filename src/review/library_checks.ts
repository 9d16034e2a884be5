// What the precedent library adds to draft_validate's citation and quote checks: a number not in the library
// but recorded as a missing precedent is known to be missing (could_not_check, not not_found); a source that a
// later authority overruled, reversed or criticised is a warning naming that document (the citation graph, as
// library_get shows it); each resolved citation carries its source's approved holdings; and every precedent
// pinned to the case has its quote checked against its source.
import { aliasedTable, and, asc, eq, inArray, isNull, sql } from '../db/orm.ts';
import { documents } from '../db/schema/documents.ts';
import { casePrecedents } from '../db/schema/holdings.ts';
import { citations, decisionMetadata, missingPrecedents } from '../db/schema/precedents.ts';
import { negativeTreatments } from '../db/schema/vocabulary.ts';
import type { Db, DbOrTx } from '../db/types.ts';
import { approvedHoldings } from '../halacha/approved.ts';
import { resolveCited } from '../precedents/resolve.ts';
import {
  type CitationCheck,
  cut,
  type Finding,
  fixFor,
  MAX_HOLDINGS,
  MAX_QUOTES_CHECKED,
  type NotChecked,
  noProvenance,
  type QuoteCheck,
} from './findings.ts';
import { matchQuote } from './quotes.ts';
import { loadSourceTexts, type Source } from './sources.ts';

interface ValidationResult {
  citations: CitationCheck[];
  quotes: QuoteCheck[];
  notChecked: NotChecked[];
}

/** Prefix of the detail of a citation recorded as a missing precedent. */
export const MISSING_DETAIL = 'Recorded as a missing precedent';

/**
 * Marks not_found citations that an open missing precedent records (by each check's proceeding key, `keyOf`),
 * and adds each source's holdings.
 */
export async function annotateCitations(
  db: DbOrTx,
  result: ValidationResult,
  keyOf: ReadonlyMap<CitationCheck, string>,
): Promise<void> {
  const lost = result.citations.filter((c) => c.verdict === 'not_found');
  const keys = [...new Set(lost.flatMap((c) => keyOf.get(c) ?? []))];
  if (keys.length > 0) {
    const open = await db
      .select({ key: missingPrecedents.key, id: missingPrecedents.id })
      .from(missingPrecedents)
      .where(and(inArray(missingPrecedents.key, keys), eq(missingPrecedents.status, 'open')));
    const byKey = new Map(open.map((m) => [m.key, m.id]));
    for (const c of lost) {
      const id = byKey.get(keyOf.get(c) ?? '');
      if (id === undefined) continue;
      c.verdict = 'could_not_check';
      c.detail = `${MISSING_DETAIL} (${id}), not yet in the library: upload it to check the citation`;
    }
  }
  const ids = [
    ...new Set(result.citations.flatMap((c) => (c.source === null ? [] : [c.source.document_id]))),
  ];
  const held = await approvedHoldings(db as Db, ids);
  for (const c of result.citations)
    if (c.source !== null)
      c.holdings = (held.get(c.source.document_id) ?? []).slice(0, MAX_HOLDINGS).map((h) => cut(h.text, 500));
}

/** A warning for each cited source that a later library or internal document treats negatively. */
export async function negativeTreatmentFindings(db: DbOrTx, result: ValidationResult): Promise<Finding[]> {
  const cited = result.citations.filter((c) => c.source !== null);
  const ids = [...new Set(cited.map((c) => c.source?.document_id ?? ''))];
  if (ids.length === 0) return [];
  const citing = aliasedTable(documents, 'citing');
  const citingMeta = aliasedTable(decisionMetadata, 'citing_meta');
  const citedMeta = aliasedTable(decisionMetadata, 'cited_meta');
  const cdoc = aliasedTable(documents, 'cited_doc');
  const rows = await db
    .select({
      cited: citations.citedDocumentId,
      id: citing.id,
      title: citing.title,
      number: sql<string | null>`coalesce(${citingMeta.number}, ${citing.number})`,
      date: sql<string | null>`coalesce(${citingMeta.decisionDate}, ${citing.decisionDate})::text`,
      own: sql<string | null>`coalesce(${citedMeta.decisionDate}, ${cdoc.decisionDate})::text`,
      treatment: citations.treatment,
      cue: citations.cue,
    })
    .from(citations)
    .innerJoin(citing, eq(citing.id, citations.documentId))
    .innerJoin(cdoc, eq(cdoc.id, citations.citedDocumentId))
    .leftJoin(citingMeta, eq(citingMeta.documentId, citing.id))
    .leftJoin(citedMeta, eq(citedMeta.documentId, cdoc.id))
    .where(
      and(
        inArray(citations.citedDocumentId, ids),
        inArray(citations.treatment, [...negativeTreatments]),
        inArray(citing.corpus, ['library', 'internal']),
      ),
    )
    .orderBy(asc(citing.createdAt), asc(citations.id))
    .limit(50 * ids.length);
  // Only a later (or undated) document speaks against it, as library_get shows it.
  const later = rows.filter((r) => r.own === null || r.date === null || r.date >= r.own);
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const c of cited)
    for (const r of later) {
      const k = `${c.block}|${c.text}|${r.id}`;
      if (r.cited !== c.source?.document_id || seen.has(k)) continue;
      seen.add(k);
      const name = [r.number, r.title, r.date].filter(Boolean).join(', ');
      out.push({
        code: 'citation_negative_treatment',
        severity: 'warning',
        block: c.block,
        block_kind: null, // validateDraft names the kind of each block
        message: `${c.text}: ${r.treatment.replace(/_/g, ' ')} by a later document: ${name}${r.cue === null ? '' : ` («${r.cue}»)`}`,
        fix: fixFor('citation_negative_treatment'),
        provenance: { ...noProvenance(), document_id: r.id, page: c.page, excerpt: cut(c.text, 200) },
      });
    }
  return out;
}

/** Checks the quote of every precedent pinned to the case against its document (or its number's source). */
export async function attachedQuoteChecks(
  db: DbOrTx,
  caseId: string,
  result: ValidationResult,
): Promise<void> {
  const pinned = await db
    .select()
    .from(casePrecedents)
    .where(and(eq(casePrecedents.caseId, caseId), isNull(casePrecedents.detachedAt)))
    .orderBy(asc(casePrecedents.seq));
  if (pinned.length === 0) return;
  const room = Math.max(0, MAX_QUOTES_CHECKED - result.quotes.length);
  const checked = pinned.slice(0, room);
  if (pinned.length > checked.length)
    result.notChecked.push({
      what: `${pinned.length - checked.length} attached precedent quote(s)`,
      reason: `over the cap of ${MAX_QUOTES_CHECKED} quotes per validation`,
    });
  const known = await resolveCited(
    db,
    checked.map((p) => p.citationKey),
  );
  const given = checked.flatMap((p) => (p.documentId === null ? [] : [p.documentId]));
  const direct =
    given.length === 0
      ? []
      : await db
          .select({
            id: documents.id,
            corpus: documents.corpus,
            number: documents.number,
            parties: documents.parties,
            status: documents.status,
            pageCount: documents.pageCount,
          })
          .from(documents)
          .where(inArray(documents.id, given));
  const byId = new Map<string, Source>(
    direct.map((d) => [d.id, { ...d, number: d.number ?? '', corpus: d.corpus as Source['corpus'] }]),
  );
  // The stored key of the pinned citation is the one key (src/legal/proceedings.ts citationKey).
  const sourceOf = (p: (typeof checked)[number]): Source | null =>
    (p.documentId === null ? undefined : byId.get(p.documentId)) ?? known.get(p.citationKey)?.[0] ?? null;
  const needed = new Map<string, Source>();
  for (const p of checked) {
    const s = sourceOf(p);
    if (s !== null) needed.set(s.id, s);
  }
  const loaded = await loadSourceTexts(db, [...needed.values()]);
  for (const p of checked) {
    const s = sourceOf(p);
    const text = s === null ? undefined : loaded.loaded.get(s.id);
    const base = {
      block: null,
      page: null,
      quote: cut(p.quote, 300),
      citation: cut(`${p.citation} (attached to ${p.section})`, 300),
    };
    if (text === undefined) {
      result.quotes.push({
        ...base,
        verdict: s === null ? 'not_found' : 'could_not_check',
        similarity: 0,
        diff: null,
        source_document_id: s?.id ?? null,
        source_page: null,
      });
      continue;
    }
    const m = matchQuote(p.quote, text.index);
    result.quotes.push({
      ...base,
      verdict: m.verdict,
      similarity: m.similarity,
      diff: m.diff,
      source_document_id: text.id,
      source_page: m.page,
    });
  }
}
