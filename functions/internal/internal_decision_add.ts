import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import {
  checkContent,
  contentFields,
  contentKey,
  storeUpload,
  uploadMessage,
  uploadOutput,
} from '../../src/documents/uploads.ts';
import { committeeField, decisionFields } from '../../src/precedents/decision_fields.ts';

export const internal_decision_add = defineTool({
  name: 'internal_decision_add',
  title: 'Add one of the committee’s own decisions',
  description:
    'Adds one of the committee’s own decisions to the corpus search_internal searches, as text or a ' +
    'file in content_base64 (PDF, DOCX, TXT, Markdown, or a scan as PNG, JPEG or TIFF: read by OCR), with its number, date, committee and parties ' +
    'as cited. Court rulings go to library_add.',
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
