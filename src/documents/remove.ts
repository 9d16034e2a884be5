// Removing a case document (document_delete): a soft delete of the row, and a hard delete of what was derived
// from its text. The derived rows are deleted rather than hidden so that no read of them has to join the
// document's status: text, search chunks, references, facts and citations are the rules' output and come
// back from the bytes, which stay. What an agent decided about a claim stays (its argument map needs it).
import { and, eq, notExists, sql } from '../db/orm.ts';
import { appraisalFacts, argumentClaims, caseReferences, claims } from '../db/schema/analysis.ts';
import { DELETED_DOCUMENT, documentChunks, documentPages, documents } from '../db/schema/documents.ts';
import { citations } from '../db/schema/precedents.ts';
import type { Db } from '../db/types.ts';

export interface Removal {
  /** Whether this call removed it (false: it was already removed, and this is the first removal's answer). */
  now: boolean;
  deletedAt: Date;
  reason: string;
}

/**
 * Marks the document deleted (status "deleted", `error` = the reason, `updated_at` = when) and deletes its
 * pages, chunks, references, appraisal facts, citations and the extracted claim candidates no agent acted
 * on, in one transaction under the document's row lock: concurrent removals serialise, and the second finds
 * it removed and answers as the first did. The caller has checked it is a case document of a live case.
 */
export async function removeCaseDocument(
  db: Db,
  documentId: string,
  o: { reason: string; now: Date },
): Promise<Removal> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ status: documents.status, error: documents.error, updatedAt: documents.updatedAt })
      .from(documents)
      .where(eq(documents.id, documentId))
      .for('update');
    if (row === undefined) throw new Error(`document ${documentId} vanished`);
    if (row.status === DELETED_DOCUMENT) {
      return { now: false, deletedAt: row.updatedAt, reason: row.error ?? '' };
    }
    await tx
      .update(documents)
      .set({ status: DELETED_DOCUMENT, error: o.reason, pageCount: null, updatedAt: o.now })
      .where(eq(documents.id, documentId));
    await tx.delete(documentChunks).where(eq(documentChunks.documentId, documentId));
    await tx.delete(documentPages).where(eq(documentPages.documentId, documentId));
    await tx.delete(caseReferences).where(eq(caseReferences.documentId, documentId));
    await tx.delete(appraisalFacts).where(eq(appraisalFacts.documentId, documentId));
    await tx.delete(citations).where(eq(citations.documentId, documentId));
    await tx
      .delete(claims)
      .where(
        and(
          eq(claims.documentId, documentId),
          eq(claims.origin, 'extracted'),
          eq(claims.status, 'candidate'),
          notExists(
            tx.select({ one: sql`1` }).from(argumentClaims).where(eq(argumentClaims.claimId, claims.id)),
          ),
        ),
      );
    return { now: true, deletedAt: o.now, reason: o.reason };
  });
}
