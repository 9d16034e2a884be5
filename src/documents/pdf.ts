import { extractText, getDocumentProxy } from 'unpdf';
import { ExtractionError } from './errors.ts';
import { MAX_PAGES } from './media.ts';

/**
 * PDF text per page with unpdf (pdf.js built for serverless runtimes). pdf.js reorders right-to-left runs
 * to logical order itself. Encrypted files (a user password) and files pdf.js cannot parse fail permanently.
 */
export async function extractPdfPages(bytes: Uint8Array): Promise<string[]> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js takes ownership of (detaches) the buffer it is given and refuses a Buffer: a plain copy.
    // verbosity 0: errors only; pdf.js's warnings would otherwise go to the console, outside our log.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { stopAtErrors: true, verbosity: 0 });
  } catch (e) {
    const name = e instanceof Error ? e.name : '';
    if (name === 'PasswordException') {
      throw new ExtractionError(
        'encrypted',
        'The PDF is encrypted with a password; upload an unprotected copy',
        {
          cause: e,
        },
      );
    }
    throw new ExtractionError(
      'broken',
      `The PDF cannot be read: ${e instanceof Error ? e.message : String(e)}`,
      {
        cause: e,
      },
    );
  }
  try {
    if (pdf.numPages > MAX_PAGES) {
      throw new ExtractionError('too_large', `The PDF has ${pdf.numPages} pages; the limit is ${MAX_PAGES}`);
    }
    const { text } = await extractText(pdf, { mergePages: false });
    return text;
  } catch (e) {
    if (e instanceof ExtractionError) throw e;
    throw new ExtractionError(
      'broken',
      `The PDF's text cannot be read: ${e instanceof Error ? e.message : String(e)}`,
      {
        cause: e,
      },
    );
  } finally {
    await pdf.cleanup().catch(() => {});
  }
}
