// draft_validate's work: what is checked (the draft's current blocks, or a case document's pages), the rule
// checks, every citation resolved and every attributed quote matched against its source, within caps; what
// a cap left out is listed as could_not_check.
import { countingFact } from '../analysis/agent_facts.ts';
import { and, asc, eq, inArray } from '../db/orm.ts';
import { appraisalFacts, argumentClaims, argumentMaps, claims } from '../db/schema/analysis.ts';
import type { CaseRow } from '../db/schema/cases.ts';
import type { Citation, DraftBlockRow } from '../db/schema/drafting.ts';
import { directions } from '../db/schema/review.ts';
import type { DbOrTx } from '../db/types.ts';
import { type CurrentBlock, currentBlocks } from '../drafting/store.ts';
import { citationKey } from '../legal/proceedings.ts';
import { resolveCited } from '../precedents/resolve.ts';
import {
  type FoundCitation,
  findCitations,
  parsePinpoint,
  partiesAgreement,
  unquotedKey,
} from './citations.ts';
import {
  type CitationCheck,
  cut,
  type Finding,
  fixFor,
  MAX_CITATIONS_CHECKED,
  MAX_QUOTES_CHECKED,
  type NotChecked,
  noProvenance,
  type QuoteCheck,
} from './findings.ts';
import { annotateCitations, attachedQuoteChecks, negativeTreatmentFindings } from './library_checks.ts';
import { findQuotes, matchQuote } from './quotes.ts';
import { draftRules } from './rules.ts';
import { loadSourceTexts, PARTIES_AGREE_AT, resolveCitation, type Source } from './sources.ts';

/** One text checked: a block of the draft, or a page of a document. */
export interface Checked {
  block: DraftBlockRow | null;
  page: number | null;
  text: string;
  /** The citations the block declares (block_write's citations). */
  declared: readonly Citation[];
}

export interface ValidationResult {
  findings: Finding[];
  citations: CitationCheck[];
  quotes: QuoteCheck[];
  notChecked: NotChecked[];
}

/** What the draft rules read besides the blocks. */
async function draftFacts(db: DbOrTx, caseRow: CaseRow, blocks: DraftBlockRow[], styleNotes: boolean) {
  const confirmed = await db
    .select()
    .from(claims)
    .where(
      and(
        eq(claims.caseId, caseRow.id),
        eq(claims.status, 'confirmed'),
        inArray(claims.party, ['appellant', 'respondent']),
      ),
    )
    .orderBy(asc(claims.seq));
  const links = await db
    .select({ argumentId: argumentClaims.argumentId, claimId: argumentClaims.claimId })
    .from(argumentClaims)
    .innerJoin(argumentMaps, eq(argumentMaps.id, argumentClaims.mapId))
    .where(eq(argumentMaps.caseId, caseRow.id));
  const byArgument = new Map<string, string[]>();
  for (const l of links) byArgument.set(l.argumentId, [...(byArgument.get(l.argumentId) ?? []), l.claimId]);
  const facts = await db
    .select()
    .from(appraisalFacts)
    .where(and(countingFact, eq(appraisalFacts.caseId, caseRow.id)));
  const [direction] = await db
    .select({ outcome: directions.outcome })
    .from(directions)
    .where(and(eq(directions.caseId, caseRow.id), eq(directions.status, 'approved')));
  return {
    caseRow,
    blocks,
    claims: confirmed,
    argumentClaims: byArgument,
    facts,
    directionOutcome: direction?.outcome ?? null,
    styleNotes,
  };
}

interface Cited {
  at: Checked;
  citation: Pick<FoundCitation, 'text' | 'key' | 'parties' | 'pinpoint'>;
  quote: string | null;
  /** Where in the text it stands (-1 for a declared citation). */
  start: number;
}

/** The citations of each text: the declared ones, then those written in it that none declared. */
function citationsOf(texts: readonly Checked[]): {
  cited: Cited[];
  quotes: { at: Checked; text: string; by: Cited | null }[];
} {
  const cited: Cited[] = [];
  const quotes: { at: Checked; text: string; by: Cited | null }[] = [];
  for (const at of texts) {
    const mine: Cited[] = [];
    for (const c of at.declared) {
      const number = c.number ?? c.text;
      mine.push({
        at,
        citation: {
          text: c.text,
          key: citationKey(number),
          parties: c.parties ?? findCitations(c.text)[0]?.parties ?? null,
          pinpoint:
            c.pinpoint === undefined
              ? (findCitations(c.text)[0]?.pinpoint ?? null)
              : parsePinpoint(c.pinpoint),
        },
        quote: c.quote ?? null,
        start: -1,
      });
    }
    // A number written in the text is the declared citation of it when the parties agree (or either names
    // none): the first time it links it, again it is the same citation repeated. With other parties' names it
    // is a citation of its own, checked as written.
    const same = (m: Cited, f: FoundCitation) =>
      m.citation.key === f.key &&
      (m.citation.parties === null ||
        f.parties === null ||
        partiesAgreement(f.parties, m.citation.parties) >= PARTIES_AGREE_AT);
    const declared = [...mine];
    for (const f of findCitations(at.text)) {
      const of = declared.find((m) => same(m, f));
      if (of === undefined) mine.push({ at, citation: f, quote: null, start: f.start });
      else if (of.start === -1) of.start = f.start;
    }
    cited.push(...mine);
    for (const m of mine) if (m.quote !== null) quotes.push({ at, text: m.quote, by: m });
    // A quotation in the text is attributed to the nearest citation written before it in the same paragraph,
    // else to the first after it there («…» (שם) or «…», עע"מ 1/20).
    for (const q of findQuotes(at.text)) {
      if (mine.some((m) => m.quote !== null && m.quote.trim() === q.text)) continue;
      const from = at.text.lastIndexOf('\n', q.start);
      const to = at.text.indexOf('\n', q.end);
      const inPara = mine.filter((m) => m.start >= 0 && m.start > from && (to < 0 || m.start < to));
      const before = inPara.filter((m) => m.start < q.start).at(-1);
      const after = inPara.find((m) => m.start >= q.end);
      const by = before ?? after ?? null;
      if (by !== null) quotes.push({ at, text: q.text, by });
    }
  }
  return { cited, quotes };
}

const sourceView = (s: Source | null): CitationCheck['source'] =>
  s === null ? null : { document_id: s.id, corpus: s.corpus, number: s.number, parties: s.parties };

/**
 * Resolves the citations and matches the quotes, within the caps. Returns each citation check's key (the
 * proceeding key, which the check itself reports without quote marks).
 */
async function authorities(
  db: DbOrTx,
  texts: readonly Checked[],
  result: ValidationResult,
  ownKey: string | null = null,
): Promise<Map<CitationCheck, string>> {
  const keyOf = new Map<CitationCheck, string>();
  const found = citationsOf(texts);
  const cited = found.cited.filter((c) => c.citation.key !== ownKey);
  const quotes = found.quotes;
  if (cited.length === 0) return keyOf;
  const checkedCitations = cited.slice(0, MAX_CITATIONS_CHECKED);
  const checkedQuotes = quotes.slice(0, MAX_QUOTES_CHECKED);
  const resolving = [...checkedCitations, ...checkedQuotes.flatMap((q) => (q.by === null ? [] : [q.by]))];
  const known = await resolveCited(
    db,
    resolving.map((c) => c.citation.key),
  );
  const sourcesOf = (key: string): Source[] => known.get(key) ?? [];
  const needed = new Map<string, Source>();
  for (const c of resolving) for (const s of sourcesOf(c.citation.key)) needed.set(s.id, s);
  const loaded = await loadSourceTexts(db, [...needed.values()]);
  const verdictOf = new Map<Cited, ReturnType<typeof resolveCitation>>();
  for (const c of checkedCitations) {
    const r = resolveCitation(c.citation, sourcesOf(c.citation.key), loaded);
    verdictOf.set(c, r);
    const check: CitationCheck = {
      block: c.at.block?.key ?? null,
      page: c.at.page,
      text: cut(c.citation.text, 300),
      key: unquotedKey(c.citation.key),
      verdict: r.verdict,
      source: sourceView(r.source),
      detail: r.detail,
      holdings: [], // annotateCitations adds the source's approved holdings
    };
    result.citations.push(check);
    keyOf.set(check, c.citation.key);
  }
  for (const q of checkedQuotes) {
    const r =
      q.by === null
        ? undefined
        : (verdictOf.get(q.by) ?? resolveCitation(q.by.citation, sourcesOf(q.by.citation.key), loaded));
    const text = r?.source === null || r?.source === undefined ? undefined : loaded.loaded.get(r.source.id);
    const base = {
      block: q.at.block?.key ?? null,
      page: q.at.page,
      quote: cut(q.text, 300),
      citation: q.by === null ? null : cut(q.by.citation.text, 300),
    };
    if (text === undefined) {
      result.quotes.push({
        ...base,
        verdict: 'could_not_check',
        similarity: 0,
        diff: null,
        source_document_id: r?.source?.id ?? null,
        source_page: null,
      });
      continue;
    }
    const m = matchQuote(q.text, text.index);
    result.quotes.push({
      ...base,
      verdict: m.verdict,
      similarity: m.similarity,
      diff: m.diff,
      source_document_id: text.id,
      source_page: m.page,
    });
  }
  if (cited.length > checkedCitations.length)
    result.notChecked.push({
      what: `${cited.length - checkedCitations.length} citation(s)`,
      reason: `over the cap of ${MAX_CITATIONS_CHECKED} per validation`,
    });
  if (quotes.length > checkedQuotes.length)
    result.notChecked.push({
      what: `${quotes.length - checkedQuotes.length} quote(s)`,
      reason: `over the cap of ${MAX_QUOTES_CHECKED} per validation`,
    });
  for (const id of loaded.tooLarge)
    result.notChecked.push({
      what: `source ${id}`,
      reason: 'its text is over the size cap of one validation',
    });
  return keyOf;
}

/** Citation and quote verdicts that are findings: anything not resolved or verbatim. */
function authorityFindings(result: ValidationResult, documentId: string | null): Finding[] {
  const out: Finding[] = [];
  for (const c of result.citations) {
    if (c.verdict === 'resolved') continue;
    out.push({
      code: `citation_${c.verdict}`,
      severity: c.verdict === 'could_not_check' ? 'warning' : 'error',
      block: c.block,
      block_kind: null,
      message: `${c.text}: ${c.detail ?? c.verdict}`,
      fix: fixFor(`citation_${c.verdict}`),
      provenance: {
        ...noProvenance(),
        document_id: c.source?.document_id ?? documentId,
        page: c.page,
        excerpt: cut(c.text, 200),
      },
    });
  }
  for (const q of result.quotes) {
    if (q.verdict === 'verbatim') continue;
    out.push({
      code: `quote_${q.verdict}`,
      severity: q.verdict === 'could_not_check' ? 'warning' : 'error',
      block: q.block,
      block_kind: null,
      fix: fixFor(`quote_${q.verdict}`),
      message:
        q.verdict === 'altered'
          ? `The quote differs from its source (${Math.round(q.similarity * 100)}%): ${q.diff}`
          : q.verdict === 'not_found'
            ? 'The quote is not in its source'
            : 'The quote’s source cannot be read',
      provenance: {
        ...noProvenance(),
        document_id: q.source_document_id ?? documentId,
        page: q.source_page ?? q.page,
        excerpt: cut(q.quote, 200),
      },
    });
  }
  return out;
}

/** Validates the draft: every rule, then the citations and quotes of every block. */
export async function validateDraft(
  db: DbOrTx,
  caseRow: CaseRow,
  options: { styleNotes?: boolean } = {},
): Promise<ValidationResult & { blocks: CurrentBlock[] }> {
  const blocks = await currentBlocks(db, caseRow.id);
  const result: ValidationResult = {
    findings: draftRules(await draftFacts(db, caseRow, blocks, options.styleNotes === true)),
    citations: [],
    quotes: [],
    notChecked: [],
  };
  // The header names this case, not an authority; a mention of the case's own number elsewhere neither.
  const own = citationKey(caseRow.caseNumber);
  const keys = await authorities(
    db,
    blocks
      .filter((b) => b.kind !== 'header')
      .map((b) => ({ block: b, page: null, text: b.text, declared: b.citations })),
    result,
    own,
  );
  await annotateCitations(db, result, keys);
  await attachedQuoteChecks(db, caseRow.id, result);
  result.findings.push(...authorityFindings(result, null), ...(await negativeTreatmentFindings(db, result)));
  const kindOf = new Map(blocks.map((b) => [b.key, b.kind]));
  for (const f of result.findings) if (f.block !== null) f.block_kind ??= kindOf.get(f.block) ?? null;
  return { ...result, blocks };
}

/** Validates a case document's citations and quotes, page by page, and its abbreviations' quote marks. */
export async function validateDocument(
  db: DbOrTx,
  documentId: string,
  caseNumber: string,
  pages: readonly string[],
): Promise<ValidationResult> {
  const result: ValidationResult = { findings: [], citations: [], quotes: [], notChecked: [] };
  const texts = pages.map((text, i) => ({ block: null, page: i + 1, text, declared: [] }));
  const keys = await authorities(db, texts, result, citationKey(caseNumber));
  await annotateCitations(db, result, keys);
  result.findings.push(
    ...authorityFindings(result, documentId),
    ...(await negativeTreatmentFindings(db, result)),
  );
  return result;
}
