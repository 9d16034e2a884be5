// The precedent library's extractors as durable work (docs/contract.md "Extraction"), on the framework of
// src/extractors/: the metadata of a library or internal document (never over a field its uploader gave),
// and the citations of a case, internal or library document, resolved to the document with that number. A
// number becoming known (metadata) resolves the earlier citations of it and closes its open missing
// precedent as found; a citation nothing resolves opens one, once per number (of a case document, only the
// filings' and the decision's: an appraisal's, a plan's or a protocol's citations are read but open none).
// Both sides take a transaction lock per number first, so a citation and the upload of what it cites, run at
// once, still meet.

import { ensureRole } from '../analysis/extractors.ts';
import { and, eq, inArray, isNull, ne, notExists, sql } from '../db/orm.ts';
import { cases } from '../db/schema/cases.ts';
import { type DocumentRole, type DocumentRow, documents } from '../db/schema/documents.ts';
import { jobs } from '../db/schema/jobs.ts';
import { citations, decisionMetadata, missingPrecedents } from '../db/schema/precedents.ts';
import type { Provenance } from '../db/schema/provenance.ts';
import type { FieldSource, MetadataField } from '../db/schema/vocabulary.ts';
import type { DbOrTx } from '../db/types.ts';
import type { ReadyDocument } from '../documents/pipeline.ts';
import { type Extractor, enqueueExtractor } from '../extractors/framework.ts';
import { normalizeProceeding, proceedingKind } from '../legal/proceedings.ts';
import { extractCitations } from './citations.ts';
import { type ExtractedMetadata, extractMetadata } from './metadata.ts';
import { resolveKeys } from './resolve.ts';

const BATCH = 200;

/** Transaction locks on proceeding numbers, in one order (no deadlock between two documents' jobs). */
async function lockNumbers(tx: DbOrTx, keys: readonly string[]): Promise<void> {
  const sorted = [...new Set(keys)].sort();
  if (sorted.length === 0) return;
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(k, 7)) from unnest(${sql.param(sorted)}::text[]) as k`,
  );
}

export const METADATA_VERSION = 'metadata@2';
export const CITATIONS_VERSION = 'citations@1';

const isDecision = (d: Pick<DocumentRow, 'corpus'>) => d.corpus === 'library' || d.corpus === 'internal';

/** The fields as stored: the uploader's where given, else the rules' reading, with each one's source. */
export function mergeMetadata(doc: DocumentRow, found: ExtractedMetadata, version: string) {
  const sources: Partial<Record<MetadataField, FieldSource>> = {};
  const provenance: Partial<Record<MetadataField, Provenance>> = {};
  const pick = <T>(
    field: MetadataField,
    given: T | null | undefined,
    extracted: { value: T } | undefined,
  ) => {
    if (given !== null && given !== undefined && given !== '') {
      sources[field] = 'given';
      return given;
    }
    if (extracted === undefined) return null;
    sources[field] = 'extracted';
    const at = (found[field] as { at: Provenance & { page: number } } | undefined)?.at;
    if (at !== undefined) {
      provenance[field] = {
        document_id: doc.id,
        page: at.page,
        start: at.start,
        end: at.end,
        text: at.text,
        extractor_version: version,
      };
    }
    return extracted.value;
  };
  const givenCourt = doc.corpus === 'internal' ? doc.committee : doc.court;
  const givenKey = doc.number === null ? null : normalizeProceeding(doc.number);
  const number = pick('number', doc.number, found.number);
  // A given number the rules cannot read still leaves the one in the text to resolve citations by.
  const numberKey = givenKey ?? found.number?.value ?? null;
  const givenKind = givenKey === null ? null : proceedingKind(givenKey.split(' ')[0] ?? '');
  return {
    documentId: doc.id,
    court: pick('court', givenCourt, found.court),
    proceeding: pick('proceeding', givenKind, found.proceeding),
    number,
    numberKey,
    decisionDate: pick('decision_date', doc.decisionDate, found.decision_date),
    judges: pick('judges', null, found.judges),
    parties: pick('parties', doc.parties, found.parties),
    outcome: pick('outcome', null, found.outcome),
    priorOutcome: pick('prior_outcome', null, found.prior_outcome),
    practiceArea: pick('practice_area', null, found.practice_area),
    sources,
    provenance,
    extractorVersion: version,
  };
}

/**
 * A document's number is known: the citations of it that nothing resolved yet now resolve to it, and its open
 * missing precedent closes as found (who and why kept on the row). Returns how many of each.
 */
export async function numberArrived(
  tx: DbOrTx,
  doc: Pick<DocumentRow, 'id' | 'title'>,
  key: string,
  now: Date,
): Promise<{ resolved: number; closed: number }> {
  const resolved = await tx
    .update(citations)
    .set({ citedDocumentId: doc.id })
    .where(and(eq(citations.key, key), isNull(citations.citedDocumentId), ne(citations.documentId, doc.id)))
    .returning({ id: citations.id });
  const closed = await tx
    .update(missingPrecedents)
    .set({
      status: 'closed',
      resolution: 'found',
      documentId: doc.id,
      closedBy: 'library_metadata_extract',
      closedAt: now,
      reason: `Found: «${doc.title}» was added with this number`,
    })
    .where(and(eq(missingPrecedents.key, key), eq(missingPrecedents.status, 'open')))
    .returning({ id: missingPrecedents.id });
  return { resolved: resolved.length, closed: closed.length };
}

export const metadataExtractor: Extractor<ExtractedMetadata> = {
  kind: 'library_metadata_extract',
  version: METADATA_VERSION,
  accepts: isDecision,
  find: (_doc, pages) => extractMetadata(pages),
  async run(tx, doc, pages, ctx, ahead) {
    const row = mergeMetadata(doc, ahead ?? extractMetadata(pages), METADATA_VERSION);
    if (row.numberKey !== null) await lockNumbers(tx, [row.numberKey]);
    const now = ctx.now();
    await tx
      .insert(decisionMetadata)
      .values({ ...row, extractedAt: now })
      .onConflictDoUpdate({ target: decisionMetadata.documentId, set: { ...row, extractedAt: now } });
    // A number that changed (the uploader corrected it): citations of the old one no longer point here.
    await tx
      .update(citations)
      .set({ citedDocumentId: null })
      .where(
        and(
          eq(citations.citedDocumentId, doc.id),
          row.numberKey === null ? sql`true` : ne(citations.key, row.numberKey),
        ),
      );
    if (row.numberKey !== null) await numberArrived(tx, doc, row.numberKey, now);
  },
};

/** The keys a document is itself known by: its metadata's number, the given one, and (cases) the case's. */
async function ownKeys(tx: DbOrTx, doc: DocumentRow, pages: readonly string[]): Promise<string[]> {
  const keys: string[] = [];
  if (doc.number !== null) keys.push(normalizeProceeding(doc.number) ?? '');
  const [meta] = await tx
    .select({ key: decisionMetadata.numberKey })
    .from(decisionMetadata)
    .where(eq(decisionMetadata.documentId, doc.id));
  if (meta?.key) keys.push(meta.key);
  if (isDecision(doc) && keys.length === 0) {
    const found = extractMetadata(pages.slice(0, 1)).number?.value;
    if (found !== undefined) keys.push(found);
  }
  if (doc.caseId !== null) {
    const [c] = await tx.select({ number: cases.caseNumber }).from(cases).where(eq(cases.id, doc.caseId));
    const key = c === undefined ? null : normalizeProceeding(c.number);
    if (key !== null) keys.push(key);
  }
  return keys.filter((k) => k !== '');
}

type FoundCitations = { own: readonly string[]; found: ReturnType<typeof extractCitations> };

export const citationExtractor: Extractor<FoundCitations, readonly string[]> = {
  kind: 'citation_extract',
  version: CITATIONS_VERSION,
  accepts: (d) => d.corpus === 'case' || isDecision(d),
  findInput: (db, doc, pages) => ownKeys(db, doc, pages),
  find: (_doc, pages, own) => ({ own, found: extractCitations(pages, own) }),
  async run(tx, doc, pages, _ctx, ahead) {
    const own = await ownKeys(tx, doc, pages);
    // Found ahead with the document's own numbers as they still are, or read again.
    const found =
      ahead !== undefined && ahead.own.length === own.length && ahead.own.every((k, i) => k === own[i])
        ? ahead.found
        : extractCitations(pages, own);
    const keys = found.map((c) => c.key);
    await lockNumbers(tx, keys);
    const resolved = await resolveKeys(tx, keys);
    const rows = found.map((c) => ({
      id: crypto.randomUUID(),
      caseId: doc.caseId,
      key: c.key,
      proceeding: c.proceeding,
      citedDocumentId: resolved.get(c.key) ?? null,
      treatment: c.treatment,
      cue: c.cue?.text ?? null,
      cueStart: c.cue?.start ?? null,
      cueEnd: c.cue?.end ?? null,
      passage: c.passage,
      fingerprint: `${c.key}|${c.page}|${c.start}|${c.end}`,
      documentId: doc.id,
      page: c.page,
      start: c.start,
      end: c.end,
      text: c.text,
      extractorVersion: CITATIONS_VERSION,
    }));
    const keep = new Set(rows.map((r) => r.fingerprint));
    const existing = await tx
      .select({ id: citations.id, fingerprint: citations.fingerprint })
      .from(citations)
      .where(eq(citations.documentId, doc.id));
    const gone = existing.filter((e) => !keep.has(e.fingerprint)).map((e) => e.id);
    for (let i = 0; i < gone.length; i += BATCH) {
      await tx.delete(citations).where(inArray(citations.id, gone.slice(i, i + BATCH)));
    }
    // The stored ids (a citation found again keeps its own), for the missing precedents it opens.
    const idOf = new Map<string, string>();
    for (let i = 0; i < rows.length; i += BATCH) {
      const stored = await tx
        .insert(citations)
        .values(rows.slice(i, i + BATCH))
        .onConflictDoUpdate({
          target: [citations.documentId, citations.fingerprint],
          set: {
            citedDocumentId: sql`excluded.cited_document_id`,
            treatment: sql`excluded.treatment`,
            cue: sql`excluded.cue`,
            cueStart: sql`excluded.cue_start`,
            cueEnd: sql`excluded.cue_end`,
            passage: sql`excluded.passage`,
            text: sql`excluded.text`,
            extractorVersion: sql`excluded.extractor_version`,
          },
        })
        .returning({ id: citations.id, fingerprint: citations.fingerprint });
      for (const r of stored) idOf.set(r.fingerprint, r.id);
    }
    // A case document opens missing precedents only when its citations matter to the case: not an
    // appraisal's (its comparables' rulings), a plan's or a protocol's.
    if (doc.corpus === 'case' && !opensMissing(await ensureRole(tx, doc, pages[0]))) return;
    await openMissing(
      tx,
      doc,
      rows
        .filter((r) => r.citedDocumentId === null)
        .map((r) => ({ ...r, id: idOf.get(r.fingerprint) ?? null })),
    );
  },
};

/** Case documents whose citations are not the case's authorities: appraisals, plans, protocols. */
const CITES_IN_PASSING: ReadonlySet<DocumentRole> = new Set([
  'appraisal',
  'deciding_appraisal',
  'advisory_appraisal',
  'plan',
  'protocol',
]);

/** Whether a case document of this role opens missing precedents (the filings, the decision under review). */
export const opensMissing = (role: DocumentRole | null): boolean =>
  role === null || !CITES_IN_PASSING.has(role);

/**
 * One open missing precedent per number nothing resolves, unless one was ever recorded for it: one statement
 * for all of a document's numbers (the open-key unique index settles two documents' jobs racing).
 */
async function openMissing(
  tx: DbOrTx,
  doc: DocumentRow,
  unresolved: readonly { key: string; text: string; passage: string; id: string | null }[],
): Promise<void> {
  const firsts = new Map<string, (typeof unresolved)[number]>();
  for (const c of unresolved) if (!firsts.has(c.key)) firsts.set(c.key, c);
  if (firsts.size === 0) return;
  const list = [...firsts.values()];
  await tx.execute(sql`
    insert into ${missingPrecedents} (id, key, citation, case_id, context, citation_id, created_by)
    select gen_random_uuid(), n.key, n.citation, ${doc.caseId}::uuid, n.context, n.citation_id, 'citation_extract'
    from unnest(${sql.param(list.map((c) => c.key))}::text[], ${sql.param(list.map((c) => c.text))}::text[],
      ${sql.param(list.map((c) => c.passage.slice(0, 2000)))}::text[], ${sql.param(list.map((c) => c.id))}::uuid[])
      as n(key, citation, context, citation_id)
    where not exists (select 1 from ${missingPrecedents} m where m.key = n.key)
    on conflict do nothing`);
}

/** The extractors of this family, in the order a new document is queued for them. */
export const precedentExtractors: readonly Extractor[] = [metadataExtractor, citationExtractor];

/** The follow-up of a document's text extraction: its metadata (library, internal), then its citations. */
export async function precedentsFollowUp(tx: DbOrTx, ready: ReadyDocument): Promise<void> {
  for (const extractor of precedentExtractors) {
    if (extractor.accepts(ready)) await enqueueExtractor(tx, extractor, ready.id);
  }
}

/** Documents of `corpora` that are ready and not yet read by `extractor` at its version (oldest first). */
export async function pendingFor(
  db: DbOrTx,
  extractor: Extractor,
  corpora: readonly DocumentRow['corpus'][],
  limit: number,
): Promise<DocumentRow[]> {
  return db
    .select()
    .from(documents)
    .where(
      and(
        inArray(documents.corpus, [...corpora]),
        eq(documents.status, 'ready'),
        notExists(
          db
            .select({ one: sql`1` })
            .from(jobs)
            .where(
              and(
                eq(jobs.kind, extractor.kind),
                eq(jobs.dedupeKey, sql`${documents.id}::text || ':' || ${extractor.version}`),
                eq(jobs.state, 'succeeded'),
              ),
            ),
        ),
      ),
    )
    .orderBy(documents.createdAt, documents.id)
    .limit(limit);
}
