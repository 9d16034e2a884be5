import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { committeeField, decisionFields } from '../../src/domain/decisions.ts';
import {
  checkContent,
  contentFields,
  contentKey,
  storeUpload,
  uploadMessage,
  uploadOutput,
} from '../../src/domain/uploads.ts';

export const internal_decision_add = defineTool({
  name: 'internal_decision_add',
  title: 'Add one of the committee’s own decisions',
  description:
    'Adds a decision the committee itself gave to the internal corpus, which search_internal searches ' +
    '(also by like_case_id, to find decisions similar to a case). Send the text or the file as ' +
    'content_base64 (PDF, DOCX, TXT, Markdown), with its number, date, committee and parties as cited. ' +
    'Idempotent on the bytes: the same file again returns the first document with created=false. ' +
    'Returns the document and its extraction job; the text is searchable once extraction_status shows the ' +
    'document ready (or after extraction_run). External rulings go to library_add; the chair’s style ' +
    'examples and case documents to document_upload.',
  input: {
    ...contentFields,
    ...decisionFields,
    committee: committeeField,
  },
  output: uploadOutput,
  mutates: 'write',
  takesUpload: true,
  precheck: checkContent,
  idempotencyKey: {
    describe: 'SHA-256 of the content, with the metadata given',
    of: (input) => contentKey('internal', undefined, input),
  },
  async run({ ctx, input }) {
    const stored = await storeUpload(ctx, {
      corpus: 'internal',
      caseId: null,
      input,
      metadata: {
        number: input.number ?? null,
        decisionDate: input.decision_date ?? null,
        committee: input.committee ?? null,
        parties: input.parties ?? null,
      },
    });
    return ok(stored, uploadMessage(stored));
  },
});
