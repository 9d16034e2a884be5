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
import { courtField, decisionFields } from '../../src/precedents/decision_fields.ts';

export const library_add = defineTool({
  name: 'library_add',
  title: 'Add an external ruling to the library',
  description:
    'Adds a court ruling (or another committee’s decision) to the library that search_library ' +
    'searches, as text or a file in content_base64 (PDF, DOCX, TXT, Markdown, or a scan as PNG, JPEG or TIFF: read by OCR), with its number, date, ' +
    'court and parties as cited. The committee’s own decisions go to internal_decision_add.',
  input: {
    ...contentFields,
    ...decisionFields,
    court: courtField,
  },
  output: uploadOutput,
  mutates: 'write',
  takesUpload: true,
  precheck: checkContent,
  idempotencyKey: {
    describe: 'SHA-256 of the content, with the metadata given',
    of: (input) => contentKey('library', undefined, input),
  },
  async run({ ctx, input }) {
    const stored = await storeUpload(ctx, {
      corpus: 'library',
      caseId: null,
      input,
      metadata: {
        number: input.number ?? null,
        decisionDate: input.decision_date ?? null,
        court: input.court ?? null,
        parties: input.parties ?? null,
      },
    });
    return ok(stored, uploadMessage(stored));
  },
});
