// claim_record's two halves: an agent adding a claim the rules missed (located by its quote on the page), and
// an agent's decision on an existing claim, kept once per (claim, action, content) in claim_actions.

import type { ToolContext } from '../contract/define.ts';
import { refuseOtherDetails, writtenOrExisting } from '../contract/durable.ts';
import { invalidArg, one, ToolError } from '../contract/errors.ts';
import { and, eq } from '../db/orm.ts';
import type { ClaimKind, ClaimParty } from '../db/schema/analysis.ts';
import { type ClaimActionKind, claimActions, claims } from '../db/schema/analysis.ts';
import { loadDocument, readyPage, requireReady } from '../documents/views.ts';
import { normalizeHebrew } from '../hebrew/text.ts';
import { type ClaimRow, loadCaseClaims } from './views.ts';

/** The provenance of an agent's claim: the recording tool stands where an extractor's version would. */
export const RECORDED_BY = 'claim_record';

/** Where a quote is on the page: exactly, or with any run of whitespace for a space (a wrapped PDF line). */
export function locate(page: string, quote: string): { start: number; end: number } | null {
  const exact = page.indexOf(quote);
  if (exact >= 0) return { start: exact, end: exact + quote.length };
  const words = quote
    .trim()
    .split(/\s+/)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const m = new RegExp(words.join('\\s+')).exec(page);
  return m === null ? null : { start: m.index, end: m.index + m[0].length };
}

export interface AddInput {
  caseId: string;
  party: ClaimParty;
  kind: ClaimKind;
  text: string;
  documentId: string;
  page: number;
  quote: string;
  reason: string | undefined;
}

/** Adds an agent's claim; the same (case, party, wording) again returns it (created false). */
export async function addClaim(ctx: ToolContext, a: AddInput): Promise<{ row: ClaimRow; created: boolean }> {
  const norm = normalizeHebrew(a.text);
  if (norm === '') throw invalidArg('text', 'has no words');
  const doc = await loadDocument(ctx.db, a.documentId);
  if (doc.caseId !== a.caseId) {
    throw new ToolError('not_found', `No document ${a.documentId} in this case`, {
      details: { case_id: a.caseId, document_id: a.documentId },
      hint: 'Give a document of the same case (document_list with the case_id lists them).',
    });
  }
  requireReady(doc, 'Wait until the document is ready, then quote it.');
  const pageText = await readyPage(ctx.db, doc, a.page);
  const at = locate(pageText, a.quote);
  if (at === null) {
    throw invalidArg(
      'quote',
      `not found on page ${a.page}`,
      'Copy the words exactly as document_text_get shows them.',
    );
  }
  const now = ctx.now();
  const { row: existing, written } = await writtenOrExisting(
    ctx.db
      .insert(claims)
      .values({
        id: crypto.randomUUID(),
        caseId: a.caseId,
        party: a.party,
        kind: a.kind,
        status: 'confirmed',
        origin: 'recorded',
        normText: norm,
        wording: a.text,
        decidedBy: ctx.agent,
        reason: a.reason ?? null,
        decidedAt: now,
        createdBy: ctx.agent,
        documentId: doc.id,
        page: a.page,
        start: at.start,
        end: at.end,
        text: pageText.slice(at.start, at.end),
        extractorVersion: RECORDED_BY,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning(),
    () =>
      ctx.db
        .select()
        .from(claims)
        .where(
          and(
            eq(claims.caseId, a.caseId),
            eq(claims.party, a.party),
            eq(claims.normText, norm),
            eq(claims.origin, 'recorded'),
          ),
        ),
    'the recorded claim',
  );
  if (written) return { row: existing, created: true };
  refuseOtherDetails(
    'claim',
    { idField: 'claim_id', id: existing.id },
    [
      ['kind', existing.kind !== a.kind],
      ['document_id', existing.documentId !== doc.id],
      ['page', existing.page !== a.page],
      ['quote', existing.start !== at.start || existing.end !== at.end],
    ],
    'Repeat the original details, or change the recorded claim with action "reword".',
  );
  return { row: existing, created: false };
}

export interface ChangeInput {
  caseId: string;
  claimId: string;
  action: ClaimActionKind;
  /** reword: the new wording; merge: the target claim id. */
  content: string;
  reason: string | undefined;
}

const STATUS: Record<ClaimActionKind, ClaimRow['status'] | null> = {
  confirm: 'confirmed',
  reject: 'rejected',
  merge: 'merged',
  reword: null,
};

/**
 * Applies an agent's decision to a claim of the case, once per (claim, action, content): a repeat returns the
 * claim as it is (created false) and a repeat with another reason is idempotency_key_reuse.
 */
export async function changeClaim(
  ctx: ToolContext,
  c: ChangeInput,
): Promise<{ row: ClaimRow; created: boolean }> {
  return ctx.db.transaction(async (tx) => {
    // Both rows of a merge are locked in one statement, in id order.
    const ids = c.action === 'merge' ? [c.claimId, c.content] : [c.claimId];
    const [claim, target] = await loadCaseClaims(tx, c.caseId, ids, true);
    if (claim === undefined) throw new Error('claim vanished under its lock');
    const [done] = await tx
      .select()
      .from(claimActions)
      .where(
        and(
          eq(claimActions.claimId, claim.id),
          eq(claimActions.action, c.action),
          eq(claimActions.content, c.content),
        ),
      );
    if (done !== undefined) {
      if ((done.reason ?? null) !== (c.reason ?? null)) {
        throw new ToolError(
          'idempotency_key_reuse',
          `This ${c.action} was already recorded with another reason`,
          {
            details: { claim_id: claim.id, action: c.action },
            hint: 'Repeat the original reason; a decision is recorded once.',
          },
        );
      }
      return { row: claim, created: false };
    }
    if (claim.status === 'merged') {
      throw new ToolError('invalid_state', 'The claim was merged into another; decide on that one', {
        details: { claim_id: claim.id, merged_into: claim.mergedInto },
        hint: 'Use the claim it was merged into (merged_into).',
      });
    }
    if (target !== undefined) {
      if (target.id === claim.id) throw invalidArg('into_claim_id', 'a claim cannot be merged into itself');
      if (target.party !== claim.party)
        throw invalidArg('into_claim_id', `is a claim of the ${target.party}, not the ${claim.party}`);
      if (target.status === 'rejected' || target.status === 'merged') {
        throw new ToolError('invalid_state', `The target claim is ${target.status}`, {
          details: { into_claim_id: target.id, status: target.status },
          hint: 'Merge into a claim that is a candidate or confirmed.',
        });
      }
    }
    const now = ctx.now();
    await tx.insert(claimActions).values({
      id: crypto.randomUUID(),
      claimId: claim.id,
      action: c.action,
      content: c.content,
      reason: c.reason ?? null,
      agent: ctx.agent,
      createdAt: now,
    });
    const status = STATUS[c.action] ?? (claim.status === 'candidate' ? 'confirmed' : claim.status);
    const row = one(
      await tx
        .update(claims)
        .set({
          status,
          ...(c.action === 'reword' ? { wording: c.content } : {}),
          ...(c.action === 'merge' ? { mergedInto: c.content } : {}),
          decidedBy: ctx.agent,
          reason: c.reason ?? null,
          decidedAt: now,
          updatedAt: now,
        })
        .where(eq(claims.id, claim.id))
        .returning(),
      'the claim under its lock',
    );
    return { row, created: true };
  });
}
