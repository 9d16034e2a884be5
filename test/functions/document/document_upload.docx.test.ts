// A Word file through document_upload, the extraction drain and document_text_get, on PGlite: its table rows
// come out as lines, its pages are the document's page breaks (each one page of document_text_get, with its
// number), its footnote at the foot of the page that cites it, and search finds a row on its page.
import {
  Document,
  FootnoteReferenceRun,
  Packer,
  PageBreak,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
} from 'docx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { document_text_get } from '../../../functions/document/document_text_get.ts';
import type { document_upload } from '../../../functions/document/document_upload.ts';
import type { search_case } from '../../../functions/search/search_case.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { FOOTNOTES_MARK } from '../../../src/documents/docx.ts';
import { seedCase } from '../../harness/documents.ts';
import { drainAll } from '../../harness/drain.ts';
import { expectOk, startTestServer, type TestServer } from '../../harness/server.ts';

const p = (text: string) =>
  new Paragraph({ bidirectional: true, children: [new TextRun({ text, rightToLeft: true })] });
const row = (...cells: string[]) =>
  new TableRow({ children: cells.map((c) => new TableCell({ children: [p(c)] })) });

describe('document_upload of a DOCX, read by page [pglite]', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ db: 'pglite' });
  });
  afterAll(async () => s?.close());

  it('rows as lines, the document’s pages, the footnote on its page', async () => {
    const caseId = await seedCase(s.db.db);
    const doc = new Document({
      footnotes: { 1: { children: [p('לפי חוות דעת השמאי המכריע')] } },
      sections: [
        {
          children: [
            p('שומה מכרעת — גוש 6638 חלקה 12'),
            new Paragraph({ children: [new PageBreak()] }),
            new Table({ rows: [row('שווי במצב קודם', '6,100,000 ₪'), row('שווי במצב חדש', '7,450,000 ₪')] }),
            new Paragraph({ children: [new TextRun('ההשבחה 1,350,000 ₪'), new FootnoteReferenceRun(1)] }),
          ],
        },
      ],
    });
    const bytes = new Uint8Array(await Packer.toBuffer(doc));
    const up = expectOk<ToolData<typeof document_upload>>(
      await s.call('ceo', 'document_upload', {
        corpus: 'case',
        case_id: caseId,
        content_base64: Buffer.from(bytes).toString('base64'),
        filename: 'שומה.docx',
      }),
    );
    await drainAll(s);
    const read = expectOk<ToolData<typeof document_text_get>>(
      await s.call('analyst', 'document_text_get', { document_id: up.document.id }),
    );
    expect(read.pages).toEqual([
      expect.objectContaining({ page: 1, text: 'שומה מכרעת — גוש 6638 חלקה 12' }),
      expect.objectContaining({
        page: 2,
        text: `שווי במצב קודם | 6,100,000 ₪\nשווי במצב חדש | 7,450,000 ₪\nההשבחה 1,350,000 ₪[1]\n\n${FOOTNOTES_MARK}\n[1] לפי חוות דעת השמאי המכריע`,
      }),
    ]);
    const hits = expectOk<ToolData<typeof search_case>>(
      await s.call('analyst', 'search_case', { case_id: caseId, query: 'שווי במצב קודם' }),
    );
    expect(hits.items[0]).toMatchObject({ document_id: up.document.id, page: 2 });
  });
});
