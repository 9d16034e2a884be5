// appraiser_fact_record's three actions: an agent adding a fact the rules missed (located by its quote on the
// page, as claim_record does), correcting a fact (a recorded row beside the original, which is kept and marked
// corrected) and rejecting one (its status only). A re-run of the fact reader keeps both: it drops only its own
// undecided rows, and a decided row keeps its fingerprint, so the re-run finds it taken.

import type { ToolContext } from '../contract/define.ts';
import { refuseOtherDetails, writtenOrExisting } from '../contract/durable.ts';
import { invalidArg, one, ToolError } from '../contract/errors.ts';
import { and, eq } from '../db/orm.ts';
import { type AppraiserRole, appraisalFacts, type FactKind, type FactUnit } from '../db/schema/analysis.ts';
import type { DocumentRole } from '../db/schema/documents.ts';
import type { DbOrTx } from '../db/types.ts';
import { loadDocument, readyPage, requireReady } from '../documents/views.ts';
import { normalizeDate } from '../legal/dates.ts';
import { findAreas, findPercents, numberOf } from '../legal/measures.ts';
import { agorotOf, normalizeMoney } from '../legal/money.ts';
import { locate } from './agent_claims.ts';
import { isoToDays } from './appraisal.ts';
import { unitOf } from './appraisal_cues.ts';

/** The provenance of an agent's fact: the recording tool stands where the reader's version would. */
export const FACT_RECORDED_BY = 'appraiser_fact_record';

export type FactRowFull = typeof appraisalFacts.$inferSelect;

/** The facts that count (extracted or recorded): neither rejected nor replaced by a correction. */
export const countingFact = eq(appraisalFacts.status, 'active');

/**
 * A value as a person writes it, in the kind's unit: a date («5.7.2022», ISO), a sum in shekels («1,250,000»,
 * «1.25 מיליון ₪», «950,000 שח»), a share («85%», «0.85»), an area («620 מ"ר», «0.6 דונם»). A reduction for the
 * reasonable range may be a sum or a share. Null when the text is not one value of that kind.
 */
export function parseFactValue(kind: FactKind, written: string): { value: number; unit: FactUnit } | null {
  const text = written.trim();
  const unit = unitOf(kind);
  const whole = <T extends { start: number; end: number }>(found: T[]) => {
    const [only, ...rest] = found;
    return only !== undefined && rest.length === 0 && only.start === 0 && only.end === text.length
      ? only
      : undefined;
  };
  const percent = whole(findPercents(text))?.value;
  switch (unit) {
    case 'date': {
      const iso =
        /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text)) ? text : normalizeDate(text);
      return iso === null ? null : { value: isoToDays(iso), unit };
    }
    case 'agorot': {
      if (kind === 'reasonable_reduction' && percent !== undefined)
        return { value: percent, unit: 'percent' };
      const agorot = normalizeMoney(text) ?? agorotOf(text);
      return agorot === null ? null : { value: agorot, unit };
    }
    case 'sqm': {
      const area = whole(findAreas(text))?.value ?? numberOf(text);
      return area === null || area <= 0 ? null : { value: area, unit };
    }
    case 'percent': {
      if (percent !== undefined) return { value: percent, unit };
      const n = numberOf(text);
      if (n === null || n <= 0) return null;
      // A coefficient written as a fraction (0.85) is 85%.
      return { value: n <= 1.5 ? Math.round(n * 100 * 1e4) / 1e4 : n, unit };
    }
  }
}

const ROLE_OF_DOCUMENT: Partial<Record<DocumentRole, AppraiserRole>> = {
  deciding_appraisal: 'deciding',
  advisory_appraisal: 'advisory',
  decision: 'decision',
};

/** The appraiser of a document's facts: as the reader named them, else by the document's role. */
async function appraiserOf(
  db: DbOrTx,
  documentId: string,
  role: DocumentRole | null,
): Promise<{ name: string | null; role: AppraiserRole }> {
  const [known] = await db
    .select({ name: appraisalFacts.appraiserName, role: appraisalFacts.appraiserRole })
    .from(appraisalFacts)
    .where(and(eq(appraisalFacts.documentId, documentId), eq(appraisalFacts.origin, 'extracted')))
    .limit(1);
  if (known !== undefined) return known;
  return { name: null, role: (role === null ? undefined : ROLE_OF_DOCUMENT[role]) ?? 'other' };
}

export interface FactFields {
  kind: FactKind;
  name: string | null;
  value: string;
  parcel: string | null;
  plan: string | null;
}

function valueOrThrow(kind: FactKind, written: string): { value: number; unit: FactUnit } {
  const parsed = parseFactValue(kind, written);
  if (parsed === null) {
    throw invalidArg(
      'value',
      `is not one ${unitOf(kind) === 'date' ? 'date' : unitOf(kind) === 'agorot' ? 'sum of money' : unitOf(kind) === 'sqm' ? 'area' : 'share'} for ${kind}`,
      'Write it as the document does: «1,250,000 ₪» (shekels), «85%» or «0.85», «620 מ"ר», «5.7.2022».',
    );
  }
  return parsed;
}

/** A page of a ready document of the case, and where the quote is on it. */
async function quoted(ctx: ToolContext, caseId: string, documentId: string, page: number, quote: string) {
  const doc = await loadDocument(ctx.db, documentId);
  if (doc.caseId !== caseId) {
    throw new ToolError('not_found', `No document ${documentId} in this case`, {
      details: { case_id: caseId, document_id: documentId },
      hint: 'Give a document of the same case (document_list with the case_id lists them).',
    });
  }
  requireReady(doc, 'Wait until the document is ready, then quote it.');
  const pageText = await readyPage(ctx.db, doc, page);
  const at = locate(pageText, quote);
  if (at === null) {
    throw invalidArg(
      'quote',
      `not found on page ${page}`,
      'Copy the words exactly as document_text_get shows them.',
    );
  }
  return { doc, at, text: pageText.slice(at.start, at.end) };
}

export interface AddFactInput extends FactFields {
  caseId: string;
  documentId: string;
  page: number;
  quote: string;
  reason: string | undefined;
}

/** Adds an agent's fact; the same (document, kind, name, quote) again returns it (created false). */
export async function addFact(
  ctx: ToolContext,
  a: AddFactInput,
): Promise<{ row: FactRowFull; created: boolean }> {
  const { value, unit } = valueOrThrow(a.kind, a.value);
  const { doc, at, text } = await quoted(ctx, a.caseId, a.documentId, a.page, a.quote);
  const appraiser = await appraiserOf(ctx.db, doc.id, doc.role);
  const fingerprint = ['recorded', a.kind, a.name ?? '', a.page, at.start, at.end].join('|');
  const now = ctx.now();
  const { row, written } = await writtenOrExisting(
    ctx.db
      .insert(appraisalFacts)
      .values({
        id: crypto.randomUUID(),
        caseId: a.caseId,
        kind: a.kind,
        name: a.name,
        value,
        unit,
        appraiserName: appraiser.name,
        appraiserRole: appraiser.role,
        parcel: a.parcel,
        plan: a.plan,
        fingerprint,
        origin: 'recorded',
        decidedBy: ctx.agent,
        reason: a.reason ?? null,
        decidedAt: now,
        documentId: doc.id,
        page: a.page,
        start: at.start,
        end: at.end,
        text,
        extractorVersion: FACT_RECORDED_BY,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning(),
    () =>
      ctx.db
        .select()
        .from(appraisalFacts)
        .where(and(eq(appraisalFacts.documentId, doc.id), eq(appraisalFacts.fingerprint, fingerprint))),
    'the recorded fact',
  );
  if (written) return { row, created: true };
  refuseOtherDetails(
    'fact',
    { idField: 'fact_id', id: row.id },
    [
      ['value', row.value !== value || row.unit !== unit],
      ['parcel', row.parcel !== a.parcel],
      ['plan', row.plan !== a.plan],
    ],
    'Repeat the original details, or change the recorded fact with action "correct".',
  );
  return { row, created: false };
}

/** The fact of the case under a row lock, or not_found. */
async function lockFact(tx: DbOrTx, caseId: string, factId: string): Promise<FactRowFull> {
  const [fact] = await tx
    .select()
    .from(appraisalFacts)
    .where(and(eq(appraisalFacts.id, factId), eq(appraisalFacts.caseId, caseId)))
    .for('update');
  if (fact === undefined) throw factNotFound(caseId, factId);
  return fact;
}

const factNotFound = (caseId: string, factId: string) =>
  new ToolError('not_found', `No appraisal fact ${factId} in this case`, {
    details: { case_id: caseId, fact_id: factId },
    hint: 'appraiser_fact_get lists the case’s facts and their ids.',
  });

export interface CorrectFactInput {
  caseId: string;
  factId: string;
  /** What changes; what is not given stays as the fact has it. */
  kind: FactKind | undefined;
  name: string | null | undefined;
  value: string | undefined;
  parcel: string | null | undefined;
  plan: string | null | undefined;
  /** A new quote (on the fact's document) when the figure is written elsewhere than the reader found it. */
  page: number | undefined;
  quote: string | undefined;
  reason: string;
}

/**
 * Corrects a fact: a recorded row with the corrected fields stands for it (`corrects`), the original is kept
 * with status corrected. Once per fact: the same correction again returns it (created false); another one is
 * invalid_state (correct the correction instead).
 */
export async function correctFact(
  ctx: ToolContext,
  c: CorrectFactInput,
): Promise<{ row: FactRowFull; created: boolean }> {
  // The quote is checked before the lock: it reads the page, not the fact.
  const [target0] = await ctx.db
    .select()
    .from(appraisalFacts)
    .where(and(eq(appraisalFacts.id, c.factId), eq(appraisalFacts.caseId, c.caseId)));
  if (target0 === undefined) throw factNotFound(c.caseId, c.factId);
  const kind = c.kind ?? target0.kind;
  const parsed = c.value === undefined ? null : valueOrThrow(kind, c.value);
  const reshare = c.kind === 'reasonable_reduction' && target0.unit === 'percent';
  if (parsed === null && c.kind !== undefined && unitOf(c.kind) !== target0.unit && !reshare) {
    throw invalidArg('value', `required when the kind changes to ${c.kind} (another unit)`);
  }
  const source =
    c.quote === undefined
      ? null
      : await quoted(ctx, c.caseId, target0.documentId, c.page ?? target0.page, c.quote);
  return ctx.db.transaction(async (tx) => {
    const target = await lockFact(tx, c.caseId, c.factId);
    const fingerprint = `correct|${target.id}`;
    const fields = {
      kind,
      name: c.name === undefined ? target.name : c.name,
      value: parsed?.value ?? target.value,
      unit: parsed?.unit ?? target.unit,
      parcel: c.parcel === undefined ? target.parcel : c.parcel,
      plan: c.plan === undefined ? target.plan : c.plan,
      page: source === null ? target.page : (c.page ?? target.page),
      start: source?.at.start ?? target.start,
      end: source?.at.end ?? target.end,
      text: source?.text ?? target.text,
    };
    const [done] = await tx
      .select()
      .from(appraisalFacts)
      .where(
        and(eq(appraisalFacts.documentId, target.documentId), eq(appraisalFacts.fingerprint, fingerprint)),
      );
    if (done !== undefined) {
      const same =
        done.kind === fields.kind &&
        done.name === fields.name &&
        done.value === fields.value &&
        done.unit === fields.unit &&
        done.parcel === fields.parcel &&
        done.plan === fields.plan &&
        done.page === fields.page &&
        done.start === fields.start &&
        done.end === fields.end &&
        (done.reason ?? null) === c.reason;
      if (same) return { row: done, created: false };
      throw new ToolError(
        'invalid_state',
        'This fact was already corrected; correct the correction instead',
        {
          details: { fact_id: target.id, correction_id: done.id },
          hint: 'Call appraiser_fact_record with action "correct" and fact_id set to correction_id.',
        },
      );
    }
    if (target.status === 'rejected') {
      throw new ToolError('invalid_state', 'The fact was rejected; record the right one with action "add"', {
        details: { fact_id: target.id, status: target.status },
        hint: 'Add the fact with its quote (action "add").',
      });
    }
    const now = ctx.now();
    const row = one(
      await tx
        .insert(appraisalFacts)
        .values({
          id: crypto.randomUUID(),
          caseId: target.caseId,
          ...fields,
          appraiserName: target.appraiserName,
          appraiserRole: target.appraiserRole,
          note: null,
          fingerprint,
          origin: 'recorded',
          corrects: target.id,
          decidedBy: ctx.agent,
          reason: c.reason,
          decidedAt: now,
          documentId: target.documentId,
          extractorVersion: FACT_RECORDED_BY,
          createdAt: now,
        })
        .returning(),
      'the correction',
    );
    await tx
      .update(appraisalFacts)
      .set({ status: 'corrected', decidedBy: ctx.agent, reason: c.reason, decidedAt: now })
      .where(eq(appraisalFacts.id, target.id));
    return { row, created: true };
  });
}

/** Rejects a fact (its status only; the row stays). The same rejection again returns it (created false). */
export async function rejectFact(
  ctx: ToolContext,
  r: { caseId: string; factId: string; reason: string },
): Promise<{ row: FactRowFull; created: boolean }> {
  return ctx.db.transaction(async (tx) => {
    const fact = await lockFact(tx, r.caseId, r.factId);
    if (fact.status === 'rejected') {
      if ((fact.reason ?? null) !== r.reason) {
        throw new ToolError('idempotency_key_reuse', 'This fact was already rejected with another reason', {
          details: { fact_id: fact.id },
          hint: 'Repeat the original reason; a rejection is recorded once.',
        });
      }
      return { row: fact, created: false };
    }
    if (fact.status === 'corrected') {
      throw new ToolError('invalid_state', 'The fact was corrected; reject the correction instead', {
        details: { fact_id: fact.id },
        hint: 'appraiser_fact_get shows the correction (its corrects names this fact); reject that one.',
      });
    }
    const now = ctx.now();
    const row = one(
      await tx
        .update(appraisalFacts)
        .set({ status: 'rejected', decidedBy: ctx.agent, reason: r.reason, decidedAt: now })
        .where(eq(appraisalFacts.id, fact.id))
        .returning(),
      'the fact under its lock',
    );
    return { row, created: true };
  });
}
