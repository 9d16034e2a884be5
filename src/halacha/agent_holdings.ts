// halacha_record's three actions on candidate holdings: an agent adding one the rules missed (located by its
// quote on the page, as claim_record does), correcting one the rules cut wrong (a recorded candidate at the
// right span; the old one rejected, pointing to it) and rejecting one that is no holding (an order, a party's
// claim, background). A recorded candidate is the agent's: the extractor never drops or rewrites it, and the
// owner still reviews it (halacha_review) before it is served as a holding.

import { locate } from '../analysis/agent_claims.ts';
import type { ToolContext } from '../contract/define.ts';
import { writtenOrExisting } from '../contract/durable.ts';
import { invalidArg, one, ToolError } from '../contract/errors.ts';
import { and, eq } from '../db/orm.ts';
import type { DocumentRow } from '../db/schema/documents.ts';
import { holdingReviews, holdings } from '../db/schema/holdings.ts';
import type { DbOrTx } from '../db/types.ts';
import { loadDocument, readyPage, requireReady } from '../documents/views.ts';
import type { HoldingRow } from './views.ts';

/** The provenance and cue of an agent's candidate. */
export const HOLDING_RECORDED_BY = 'halacha_record';

const holdingNotFound = (id: string) =>
  new ToolError('not_found', `No holding with id ${id}`, {
    details: { halacha_id: id },
    hint: 'halacha_list shows the holdings and their ids.',
  });

/** Where a quote is on a page of a ready library or internal document. */
async function quotedSpan(db: DbOrTx, doc: DocumentRow, page: number, quote: string) {
  requireReady(doc, 'Wait until the document is ready, then quote it.');
  const text = await readyPage(db, doc, page);
  const at = locate(text, quote);
  if (at === null)
    throw invalidArg(
      'quote',
      `not found on page ${page}`,
      'Copy the words exactly as document_text_get shows them.',
    );
  return { page, start: at.start, end: at.end, text: text.slice(at.start, at.end) };
}

async function holdingsDocument(db: DbOrTx, documentId: string): Promise<DocumentRow> {
  const doc = await loadDocument(db, documentId);
  if (doc.corpus !== 'library' && doc.corpus !== 'internal') {
    throw invalidArg(
      'document_id',
      `is a ${doc.corpus} document; holdings are of rulings and decisions`,
      'Give a library ruling (library_list) or a committee decision (internal_decision_list).',
    );
  }
  return doc;
}

/** Inserts (or finds) the recorded candidate at a span; an extracted pending one there becomes the agent's. */
async function recordAt(
  ctx: ToolContext,
  tx: DbOrTx,
  documentId: string,
  span: { page: number; start: number; end: number; text: string },
): Promise<{ row: HoldingRow; created: boolean }> {
  const at = and(
    eq(holdings.documentId, documentId),
    eq(holdings.page, span.page),
    eq(holdings.start, span.start),
    eq(holdings.end, span.end),
  );
  const [there] = await tx.select().from(holdings).where(at).for('update');
  if (there !== undefined) {
    if (there.status === 'rejected') {
      throw new ToolError('invalid_state', 'This passage was rejected as a holding', {
        details: { halacha_id: there.id, reviewed_by: there.reviewedBy, reason: there.reviewReason },
        hint: 'Only the owner can revive it (halacha_review with decision "approve").',
      });
    }
    if (there.origin === 'recorded' || there.status !== 'pending') return { row: there, created: false };
    const adopted = one(
      await tx
        .update(holdings)
        .set({ origin: 'recorded', updatedAt: ctx.now() })
        .where(eq(holdings.id, there.id))
        .returning(),
      'the adopted candidate',
    );
    return { row: adopted, created: true };
  }
  const now = ctx.now();
  const { row, written } = await writtenOrExisting(
    tx
      .insert(holdings)
      .values({
        id: crypto.randomUUID(),
        origin: 'recorded',
        cue: HOLDING_RECORDED_BY,
        documentId,
        ...span,
        extractorVersion: HOLDING_RECORDED_BY,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning(),
    () => tx.select().from(holdings).where(at),
    'the recorded candidate',
  );
  return { row, created: written };
}

/** Adds an agent's candidate holding; the same quote again returns it (created false). */
export async function addHolding(
  ctx: ToolContext,
  a: { documentId: string; page: number; quote: string },
): Promise<{ row: HoldingRow; created: boolean }> {
  const doc = await holdingsDocument(ctx.db, a.documentId);
  const span = await quotedSpan(ctx.db, doc, a.page, a.quote);
  return ctx.db.transaction((tx) => recordAt(ctx, tx, doc.id, span));
}

/** The holding under a row lock, pending, with the agent's decision on it so far (if any). */
async function lockPending(tx: DbOrTx, id: string, decided: string): Promise<HoldingRow> {
  const [h] = await tx.select().from(holdings).where(eq(holdings.id, id)).for('update');
  if (h === undefined) throw holdingNotFound(id);
  if (h.status === 'approved') {
    throw new ToolError('invalid_state', `The owner approved this holding; it cannot be ${decided}`, {
      details: { halacha_id: h.id, reviewed_by: h.reviewedBy },
      hint: 'Ask the owner to review it again (halacha_review), or add the passage you mean (action "add").',
    });
  }
  return h;
}

/**
 * Re-quotes a pending candidate: a recorded candidate at the right span, and the old one rejected with a
 * review that names the new span. Once per (candidate, span): a repeat returns the recorded candidate.
 */
export async function correctHolding(
  ctx: ToolContext,
  c: { holdingId: string; page: number | undefined; quote: string; reason: string },
): Promise<{ row: HoldingRow; created: boolean }> {
  const [h0] = await ctx.db.select().from(holdings).where(eq(holdings.id, c.holdingId));
  if (h0 === undefined) throw holdingNotFound(c.holdingId);
  const doc = await holdingsDocument(ctx.db, h0.documentId);
  const span = await quotedSpan(ctx.db, doc, c.page ?? h0.page, c.quote);
  if (span.page === h0.page && span.start === h0.start && span.end === h0.end)
    throw invalidArg('quote', 'is the candidate as it stands', 'Quote the passage the holding really is.');
  const content = `correct:${span.page}:${span.start}:${span.end}`;
  return ctx.db.transaction(async (tx) => {
    const h = await lockPending(tx, c.holdingId, 'corrected');
    const [done] = await tx
      .select()
      .from(holdingReviews)
      .where(
        and(
          eq(holdingReviews.holdingId, h.id),
          eq(holdingReviews.decision, 'reject'),
          eq(holdingReviews.content, content),
        ),
      );
    if (done !== undefined) return { row: (await recordAt(ctx, tx, h.documentId, span)).row, created: false };
    if (h.status !== 'pending') {
      throw new ToolError('invalid_state', 'This candidate was already rejected', {
        details: { halacha_id: h.id, reason: h.reviewReason },
        hint: 'Add the passage you mean with action "add".',
      });
    }
    const { row } = await recordAt(ctx, tx, h.documentId, span);
    await reject(ctx, tx, h, content, `${c.reason} (corrected: ${row.id})`);
    return { row, created: true };
  });
}

async function reject(ctx: ToolContext, tx: DbOrTx, h: HoldingRow, content: string, reason: string) {
  const now = ctx.now();
  await tx.insert(holdingReviews).values({
    id: crypto.randomUUID(),
    holdingId: h.id,
    decision: 'reject',
    content,
    reason,
    agent: ctx.agent,
    createdAt: now,
  });
  return one(
    await tx
      .update(holdings)
      .set({
        status: 'rejected',
        reviewedBy: ctx.agent,
        reviewReason: reason,
        reviewedAt: now,
        updatedAt: now,
      })
      .where(eq(holdings.id, h.id))
      .returning(),
    'the holding under its lock',
  );
}

/** Rejects a pending candidate (not a holding); the same rejection again returns it (created false). */
export async function rejectHolding(
  ctx: ToolContext,
  r: { holdingId: string; reason: string },
): Promise<{ row: HoldingRow; created: boolean }> {
  return ctx.db.transaction(async (tx) => {
    const h = await lockPending(tx, r.holdingId, 'rejected');
    if (h.status === 'rejected') {
      if (h.reviewReason !== r.reason) {
        throw new ToolError(
          'idempotency_key_reuse',
          'This candidate was already rejected with another reason',
          {
            details: { halacha_id: h.id, reason: h.reviewReason },
            hint: 'Repeat the original reason; a rejection is recorded once.',
          },
        );
      }
      return { row: h, created: false };
    }
    return { row: await reject(ctx, tx, h, 'agent', r.reason), created: true };
  });
}
