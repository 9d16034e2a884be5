// The three analysis extractors as durable work (docs/contract.md "Extraction"), on the framework of
// src/extractors/: each replaces only its own findings for a document, keeping the rows it finds again (same
// ids) and never touching what an agent recorded or decided. A case document's role is detected from its
// first page when no one gave it, before any of them reads it.
import { and, asc, eq, inArray, isNull, notExists, sql } from '../db/orm.ts';
import { appraisalFacts, argumentClaims, caseReferences, claims } from '../db/schema/analysis.ts';
import { type DocumentRole, type DocumentRow, documentPages, documents } from '../db/schema/documents.ts';
import type { DbOrTx } from '../db/types.ts';
import type { ReadyDocument } from '../documents/pipeline.ts';
import {
  type Extractor,
  type ExtractorContext,
  enqueueExtractor,
  type FindDocument,
} from '../extractors/framework.ts';
import { APPRAISAL_ROLES, extractFacts, FIGURE_ROLES, findAppraiser } from './appraisal.ts';
import { CLAIM_ROLES, type ClaimCandidate, extractClaims } from './claims.ts';
import { extractDecisionFacts } from './decision_figures.ts';
import { extractReferences } from './references.ts';
import { detectRole } from './roles.ts';

const BATCH = 200;

/** An extracted fact no agent decided on: the only kind of fact a run or a role change may drop. */
const undecidedFact = and(eq(appraisalFacts.origin, 'extracted'), eq(appraisalFacts.status, 'active'));

type Target = Pick<DocumentRow, 'corpus' | 'caseId'> & Partial<DocumentRow>;

/** An extractor reads case documents of these roles (a role not known yet is read: the run detects it). */
const readsRoles = (roles: readonly DocumentRole[] | 'all') => (d: Target) =>
  d.corpus === 'case' && (roles === 'all' || d.role == null || roles.includes(d.role));

/**
 * The document's role: as given, or detected from its first page and stored (role_source "detected") when
 * it has none yet.
 */
export async function ensureRole(
  tx: DbOrTx,
  doc: DocumentRow,
  firstPage?: string,
): Promise<DocumentRole | null> {
  if (doc.corpus !== 'case') return null;
  if (doc.role !== null) return doc.role;
  const page =
    firstPage ??
    (
      await tx
        .select({ text: documentPages.text })
        .from(documentPages)
        .where(and(eq(documentPages.documentId, doc.id), eq(documentPages.page, 1)))
    )[0]?.text;
  if (page === undefined) return null;
  const role = detectRole(page);
  await tx
    .update(documents)
    .set({ role, roleSource: 'detected' })
    .where(and(eq(documents.id, doc.id), isNull(documents.role)));
  doc.role = role;
  doc.roleSource = 'detected';
  return role;
}

/** The role a run reads a document as (ensureRole's, without storing it): as given, else from page 1. */
function roleOf(doc: FindDocument, pages: readonly string[]): DocumentRole | null {
  if (doc.corpus !== 'case') return null;
  if (doc.role !== null) return doc.role;
  return pages[0] === undefined ? null : detectRole(pages[0]);
}

/** Rows per short transaction of a finding's upserts (claims and their indexes cost ~1 ms a row on PGlite). */
const SLICE_ROWS = 20;

/** The upserts in slices, each its own short transaction after the run's (ExtractorContext.slice). */
function insertBatches<T>(
  ctx: ExtractorContext,
  rows: T[],
  insert: (tx: DbOrTx, batch: T[]) => Promise<unknown>,
): void {
  for (let i = 0; i < rows.length; i += SLICE_ROWS) {
    const batch = rows.slice(i, i + SLICE_ROWS);
    ctx.slice((tx) => insert(tx, batch));
  }
}

type References = ReturnType<typeof extractReferences>;

export const referenceExtractor: Extractor<References> = {
  kind: 'reference_extract',
  version: 'references@1',
  accepts: readsRoles('all'),
  find: (_doc, pages) => extractReferences(pages),
  async run(tx, doc, pages, ctx, ahead) {
    await ensureRole(tx, doc, pages[0]);
    const caseId = doc.caseId;
    if (caseId === null) return;
    const found = (ahead ?? extractReferences(pages)).map((r) => ({
      id: crypto.randomUUID(),
      caseId,
      kind: r.kind,
      key: r.key,
      fingerprint: `${r.kind}|${r.key}|${r.page}|${r.start}|${r.end}`,
      documentId: doc.id,
      page: r.page,
      start: r.start,
      end: r.end,
      text: r.text,
      extractorVersion: referenceExtractor.version,
    }));
    await replaceFindings(tx, caseReferences, doc.id, found);
    insertBatches(ctx, found, (stx, batch) =>
      stx
        .insert(caseReferences)
        .values(batch)
        .onConflictDoUpdate({
          target: [caseReferences.documentId, caseReferences.fingerprint],
          set: { extractorVersion: sql`excluded.extractor_version`, text: sql`excluded.text` },
        }),
    );
  },
};

/**
 * Drops a document's findings (references, facts) that a run no longer finds; the rest stay as they are. Of
 * the facts only the extractor's own undecided rows can go: an agent's fact, and an extracted fact an agent
 * rejected or corrected, stay.
 */
async function replaceFindings(
  tx: DbOrTx,
  table: typeof caseReferences | typeof appraisalFacts,
  documentId: string,
  found: readonly { fingerprint: string }[],
): Promise<void> {
  const keep = new Set(found.map((f) => f.fingerprint));
  const existing =
    table === appraisalFacts
      ? await tx
          .select({ id: appraisalFacts.id, fingerprint: appraisalFacts.fingerprint })
          .from(appraisalFacts)
          .where(and(eq(appraisalFacts.documentId, documentId), undecidedFact))
      : await tx
          .select({ id: caseReferences.id, fingerprint: caseReferences.fingerprint })
          .from(caseReferences)
          .where(eq(caseReferences.documentId, documentId));
  const gone = existing.filter((e) => !keep.has(e.fingerprint)).map((e) => e.id);
  for (let i = 0; i < gone.length; i += BATCH) {
    await tx.delete(table).where(inArray(table.id, gone.slice(i, i + BATCH)));
  }
}

export const claimExtractor: Extractor<ClaimCandidate[]> = {
  kind: 'claim_extract',
  version: 'claims@2',
  accepts: readsRoles(CLAIM_ROLES),
  find: (doc, pages) => extractClaims(pages, roleOf(doc, pages)),
  async run(tx, doc, pages, ctx, ahead) {
    const role = await ensureRole(tx, doc, pages[0]);
    const caseId = doc.caseId;
    if (caseId === null) return;
    const now = ctx.now();
    const found = ahead ?? extractClaims(pages, role);
    const span = (c: { page: number; start: number; end: number }) => `${c.page}|${c.start}|${c.end}`;
    const keep = new Set(found.map(span));
    // Candidates no longer found go, unless an agent used them in an argument map; decided ones always stay.
    const stale = (
      await tx
        .select({ id: claims.id, page: claims.page, start: claims.start, end: claims.end })
        .from(claims)
        .where(
          and(
            eq(claims.documentId, doc.id),
            eq(claims.origin, 'extracted'),
            eq(claims.status, 'candidate'),
            notExists(
              tx.select({ one: sql`1` }).from(argumentClaims).where(eq(argumentClaims.claimId, claims.id)),
            ),
          ),
        )
    )
      .filter((c) => !keep.has(span(c)))
      .map((c) => c.id);
    if (stale.length > 0) await tx.delete(claims).where(inArray(claims.id, stale));
    const rows = found.map((c) => ({
      id: crypto.randomUUID(),
      caseId,
      party: c.party,
      kind: c.kind,
      origin: 'extracted' as const,
      label: c.label,
      heading: c.heading,
      normText: c.norm,
      createdBy: 'extractor',
      documentId: doc.id,
      page: c.page,
      start: c.start,
      end: c.end,
      text: c.text,
      extractorVersion: claimExtractor.version,
      createdAt: now,
      updatedAt: now,
    }));
    // A candidate found again keeps its id; only a candidate's own fields follow the rules' new reading.
    insertBatches(ctx, rows, (stx, batch) =>
      stx
        .insert(claims)
        .values(batch)
        .onConflictDoUpdate({
          target: [claims.documentId, claims.page, claims.start, claims.end],
          targetWhere: sql`origin = 'extracted'`,
          set: {
            party: sql`excluded.party`,
            kind: sql`excluded.kind`,
            label: sql`excluded.label`,
            heading: sql`excluded.heading`,
            normText: sql`excluded.norm_text`,
            text: sql`excluded.text`,
            extractorVersion: sql`excluded.extractor_version`,
          },
          setWhere: sql`${claims.status} = 'candidate'`,
        }),
    );
  },
};

/** A document's figures and whose they are: an appraisal's by the appraisal rules, a decision's own sums. */
function findFigures(role: DocumentRole | null, pages: readonly string[]) {
  const decision = role === 'decision';
  const reads = role !== null && APPRAISAL_ROLES.includes(role);
  const appraiser = decision ? { name: null, role: 'decision' as const } : findAppraiser(pages, role);
  const candidates = decision ? extractDecisionFacts(pages) : reads ? extractFacts(pages) : [];
  return { appraiser, candidates };
}

export const factExtractor: Extractor<ReturnType<typeof findFigures>> = {
  kind: 'appraiser_fact_extract',
  version: 'appraisal@2',
  accepts: readsRoles(FIGURE_ROLES),
  find: (doc, pages) => findFigures(roleOf(doc, pages), pages),
  async run(tx, doc, pages, ctx, ahead) {
    const role = await ensureRole(tx, doc, pages[0]);
    const caseId = doc.caseId;
    if (caseId === null) return;
    const { appraiser, candidates } = ahead ?? findFigures(role, pages);
    const found = candidates.map((f) => ({
      id: crypto.randomUUID(),
      caseId,
      kind: f.kind,
      name: f.name,
      value: f.value,
      unit: f.unit,
      appraiserName: appraiser.name,
      appraiserRole: appraiser.role,
      parcel: f.parcel,
      plan: f.plan,
      note: f.note,
      fingerprint: [
        f.kind,
        f.name,
        f.value,
        f.page,
        f.start,
        f.end,
        f.parcel,
        f.plan,
        f.note,
        appraiser.name,
        appraiser.role,
      ].join('|'),
      documentId: doc.id,
      page: f.page,
      start: f.start,
      end: f.end,
      text: f.text,
      extractorVersion: factExtractor.version,
    }));
    await replaceFindings(tx, appraisalFacts, doc.id, found);
    insertBatches(ctx, found, (stx, batch) => stx.insert(appraisalFacts).values(batch).onConflictDoNothing());
  },
};

/** The analysis extractors, in the order a new document is queued for them. */
export const analysisExtractors: readonly Extractor[] = [referenceExtractor, claimExtractor, factExtractor];

/**
 * The follow-up of a case document's text extraction (in that transaction): its role detected when none was
 * given, then one job per analysis extractor that reads a document of that role.
 */
export async function analysisFollowUp(tx: DbOrTx, ready: ReadyDocument): Promise<void> {
  if (ready.corpus !== 'case') return;
  const [doc] = await tx.select().from(documents).where(eq(documents.id, ready.id));
  if (doc === undefined) return;
  await ensureRole(tx, doc);
  for (const extractor of analysisExtractors) {
    if (extractor.accepts(doc)) await enqueueExtractor(tx, extractor, doc.id);
  }
}

/**
 * After an agent changed a ready document's role: each extractor that reads the new role runs again (its job
 * for this document back to pending, or a new one); one that does not drops its own findings for the
 * document (decisions and arguments stay).
 */
export async function roleChanged(tx: DbOrTx, doc: DocumentRow): Promise<void> {
  if (doc.corpus !== 'case' || doc.status !== 'ready') return;
  for (const extractor of analysisExtractors) {
    if (extractor.accepts(doc)) {
      const { id } = await enqueueExtractor(tx, extractor, doc.id);
      await tx.execute(sql`
        update jobs set state = 'pending', attempt = 0, last_error = null, run_at = now(), lease_until = null,
          locked_by = null, finished_at = null, updated_at = now()
        where id = ${id} and state <> 'pending'`);
    } else if (extractor === claimExtractor) {
      await tx
        .delete(claims)
        .where(
          and(
            eq(claims.documentId, doc.id),
            eq(claims.origin, 'extracted'),
            eq(claims.status, 'candidate'),
            notExists(
              tx.select({ one: sql`1` }).from(argumentClaims).where(eq(argumentClaims.claimId, claims.id)),
            ),
          ),
        );
    } else if (extractor === factExtractor) {
      await tx.delete(appraisalFacts).where(and(eq(appraisalFacts.documentId, doc.id), undecidedFact));
    }
  }
}

/** Detects and stores the roles of a case's (or one document's) ready documents that have none yet. */
export async function detectMissingRoles(
  tx: DbOrTx,
  where: { caseId: string } | { documentId: string },
): Promise<void> {
  const rows = await tx
    .select()
    .from(documents)
    .where(
      and(
        'caseId' in where ? eq(documents.caseId, where.caseId) : eq(documents.id, where.documentId),
        eq(documents.corpus, 'case'),
        eq(documents.status, 'ready'),
        isNull(documents.role),
      ),
    )
    .orderBy(asc(documents.createdAt));
  for (const doc of rows) await ensureRole(tx, doc);
}
