import * as z from 'zod';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { invalidArg } from '../../src/contract/errors.ts';
import {
  checkContent,
  contentFields,
  contentKey,
  storeUpload,
  uploadMessage,
  uploadOutput,
} from '../../src/documents/uploads.ts';
import { roleInput } from '../../src/documents/views.ts';

export const document_upload = defineTool({
  name: 'document_upload',
  title: 'Upload a case document or a style example',
  description:
    'Stores a document and queues the extraction of its text: corpus "case" (with case_id) or "style" ' +
    '(the chair’s past decisions as writing examples). Send text, or content_base64 (PDF, DOCX, TXT, ' +
    'Markdown, or a PNG, JPEG or TIFF scan: read by OCR). Readable once extraction_status shows it ready. ' +
    'Committee decisions go to internal_decision_add, rulings to library_add.',
  input: {
    corpus: z
      .enum(['case', 'style'])
      .describe('case: an appeal’s document (with case_id); style: a writing example'),
    case_id: caseIdInput.optional().describe('With corpus "case": its case'),
    role: roleInput.optional(),
    ...contentFields,
  },
  output: uploadOutput,
  mutates: 'write',
  takesUpload: true,
  precheck: (input) => {
    checkCorpus(input.corpus, input.case_id);
    if (input.role !== undefined && input.corpus !== 'case') {
      throw invalidArg('role', 'only a case document has a role', 'Omit role for a style example.');
    }
    checkContent(input);
  },
  idempotencyKey: {
    describe: 'corpus + case_id + SHA-256 of the content, with the metadata given',
    of: (input) => contentKey(input.corpus, input.case_id, input),
  },
  async run({ ctx, input }) {
    // C7: a deleted case is not reachable, so it takes no new documents.
    if (input.case_id !== undefined) await loadLiveCase(ctx.db, input.case_id);
    const stored = await storeUpload(ctx, {
      corpus: input.corpus,
      caseId: input.case_id ?? null,
      input,
      metadata: { role: input.role ?? null },
    });
    return ok(stored, uploadMessage(stored));
  },
});

function checkCorpus(corpus: 'case' | 'style', caseId: string | undefined): void {
  if (corpus === 'case' && caseId === undefined) {
    throw invalidArg(
      'case_id',
      'required when corpus is "case"',
      'Use case_list to find the case id, or corpus "style" for the chair’s past decisions.',
    );
  }
  if (corpus === 'style' && caseId !== undefined) {
    throw invalidArg(
      'case_id',
      'not allowed when corpus is "style"',
      'Style examples belong to no case; omit case_id, or use corpus "case".',
    );
  }
}
