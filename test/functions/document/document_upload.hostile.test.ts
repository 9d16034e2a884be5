// Hostile and huge files through document_upload and the extraction drain (extraction_run), on PGlite (the
// readers do not touch the database; the failure path is the same on both, see document_upload.test.ts):
// a DOCX zip bomb whose headers lie, a PDF of 5,000 pages, a PDF decompression bomb, a PDF with a giant
// image, a password-protected PDF, a corrupt PDF and DOCX. Each ends `failed` with its reason, nothing is
// indexed, and the server answers the next call. The old binary .doc is refused at upload with the fix.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { document_upload } from '../../../functions/document/document_upload.ts';
import type { extraction_run } from '../../../functions/extraction/extraction_run.ts';
import {
  corruptDocx,
  flateBombPdf,
  hugeImagePdf,
  manyPagesPdf,
  zipBombDocx,
} from '../../../scripts/fixtures/hostile.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { documentPages, documents } from '../../../src/db/schema/documents.ts';
import { fixtureBytes } from '../../fixtures/hebrew/corpus.ts';
import { seedCase } from '../../harness/documents.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../../harness/server.ts';

type Upload = ToolData<typeof document_upload>;
type RunReport = ToolData<typeof extraction_run>;
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('document_upload with hostile files [pglite]', () => {
  let s: TestServer;
  let caseId: string;
  beforeAll(async () => {
    s = await startTestServer({ db: 'pglite' });
    caseId = await seedCase(s.db.db);
  });
  afterAll(async () => s?.close());

  const hostile: [string, () => Uint8Array | Promise<Uint8Array>, RegExp][] = [
    ['a DOCX whose 4 KB document.xml inflates to 1 GiB', () => zipBombDocx(), /DOCX is too large.*52428800/],
    ['a corrupt DOCX', () => corruptDocx(), /DOCX cannot be read.*damaged/],
    [
      'a truncated DOCX',
      async () => (await fixtureBytes('appeal', 'docx')).subarray(0, 3000),
      /DOCX cannot be read/,
    ],
    ['a PDF of 5,000 empty pages', () => manyPagesPdf(), /5000 pages; the limit is 2000/],
    ['a PDF whose content stream inflates to 1 GiB', () => flateBombPdf(), /decompression bomb/],
    ['a PDF with a 100,000 × 100,000 image', () => hugeImagePdf(), /image of 100000 × 100000 pixels/],
    ['a password-protected PDF', () => fixtureBytes('encrypted', 'pdf'), /encrypted with a password/],
    ['a corrupt PDF', () => fixtureBytes('broken', 'pdf'), /PDF cannot be read/],
  ];

  for (const [what, bytes, reason] of hostile) {
    it(`${what}: failed with the reason, nothing indexed, and the next call is answered`, async () => {
      const data = expectOk<Upload>(
        await s.call('ceo', 'document_upload', {
          corpus: 'case',
          case_id: caseId,
          content_base64: b64(await bytes()),
        }),
      );
      const report = expectOk<RunReport>(await s.call('ceo', 'extraction_run', { max_jobs: 5 }));
      expect(report.errors).toContainEqual(expect.objectContaining({ id: data.job_id, outcome: 'dead' }));
      const [row] = await s.db.db.select().from(documents).where(eq(documents.id, data.document.id));
      expect(row?.status).toBe('failed');
      expect(row?.error).toMatch(reason);
      const pages = await s.db.db
        .select()
        .from(documentPages)
        .where(eq(documentPages.documentId, data.document.id));
      expect(pages).toHaveLength(0);
      const status = expectOk<{ document: { status: string; error: string } }>(
        await s.call('ceo', 'extraction_status', { document_id: data.document.id }),
      );
      expect(status.document).toMatchObject({ status: 'failed', error: row?.error });
      // The next call: another upload is extracted and read.
      const next = expectOk<Upload>(
        await s.call('ceo', 'document_upload', {
          corpus: 'case',
          case_id: caseId,
          text: `תגובה ${crypto.randomUUID()}`,
        }),
      );
      await s.call('ceo', 'extraction_run', { max_jobs: 5 });
      const read = expectOk<{ pages: { text: string }[] }>(
        await s.call('analyst', 'document_text_get', { document_id: next.document.id }),
      );
      expect(read.pages[0]?.text).toMatch(/^תגובה /);
    });
  }

  it('an old binary .doc is refused at upload, naming the fix (save as DOCX or PDF)', async () => {
    // An OLE compound file header, as Word 97–2003 writes it.
    const doc = new Uint8Array(1024);
    doc.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const env = await s.call('ceo', 'document_upload', {
      corpus: 'case',
      case_id: caseId,
      content_base64: b64(doc),
    });
    expect(errorCode(env)).toBe('unsupported_media_type');
    expect(env.ok ? '' : env.error.message).toMatch(
      /old binary Word file \(\.doc\).*save it as DOCX \(or PDF\)/,
    );
    expect(env.ok ? null : env.error.details).toMatchObject({ detected: 'application/msword' });
  });
});
