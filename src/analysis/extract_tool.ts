// What reference_extract, claim_extract and appraiser_fact_extract share (docs/contract.md "Extraction"): the
// input (one document or a case's documents), and the targets: reachable first, roles detected where none is
// known, a document of a role the extractor does not read refused.
import * as z from 'zod';
import { loadLiveCase } from '../cases/live.ts';
import type { ToolContext } from '../contract/define.ts';
import { invalidArg } from '../contract/errors.ts';
import type { DocumentRole } from '../db/schema/documents.ts';
import { loadDocument } from '../documents/views.ts';
import type { Extractor } from '../extractors/framework.ts';
import { type ExtractionTargets, extractionTargets, waitMsInput } from '../extractors/tool.ts';
import { detectMissingRoles, ensureRole } from './extractors.ts';

export const extractInput = {
  document_id: z.uuid().optional().describe('One case document'),
  case_id: z.uuid().optional().describe('Or all of this case’s'),
  wait_ms: waitMsInput.describe('Wait this long (ms, ≤ 10000) for the result'),
};

export const extractKey = {
  describe: 'document_id or case_id (asking again queues nothing new)',
  of: (i: { document_id?: string | undefined; case_id?: string | undefined }) =>
    `${i.document_id ?? '-'}:${i.case_id ?? '-'}`,
};

/**
 * The targets of an analysis extractor that reads `what` (documents of these roles; null: every case
 * document), given one document or a case.
 */
export function analysisTargets(extractor: Extractor, what: string, roles: readonly DocumentRole[] | null) {
  return async (
    ctx: ToolContext,
    input: { document_id?: string | undefined; case_id?: string | undefined },
  ): Promise<ExtractionTargets> => {
    if ((input.document_id === undefined) === (input.case_id === undefined)) {
      throw invalidArg('document_id', 'give document_id or case_id, exactly one');
    }
    // Reachability first (C7): nothing is written for a deleted case or an unreachable document.
    if (input.document_id !== undefined) {
      const doc = await loadDocument(ctx.db, input.document_id);
      if (doc.corpus === 'case' && doc.status === 'ready' && doc.role === null) {
        await ctx.db.transaction((tx) => ensureRole(tx, doc));
      }
      if (doc.corpus === 'case' && doc.role !== null && roles !== null && !roles.includes(doc.role)) {
        const fix = ctx.holds('document_update') ? 'document_update sets it' : 'the analyst can set it';
        throw invalidArg(
          'document_id',
          `${extractor.kind} reads ${what}; this document's role is ${doc.role}`,
          `If that role is wrong, ${fix}; otherwise give case_id to read every document it applies to.`,
        );
      }
    } else {
      const caseId = input.case_id as string;
      await loadLiveCase(ctx.db, caseId);
      await ctx.db.transaction((tx) => detectMissingRoles(tx, { caseId }));
    }
    return extractionTargets(ctx, extractor, input, what);
  };
}
