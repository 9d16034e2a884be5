// Scans read by OCR through the tools, with the real engine (Tesseract, the Hebrew and English models from
// their packages): an image-only PDF, a mixed PDF (a text page, a scanned page, a page whose text layer is
// garbage over a scanned image, and a page of noise), PNG, JPEG and a two-page TIFF. The scans are our own
// Hebrew text rendered and rasterised at 300 dpi (scripts/fixtures/make_scans.ts); PDFs, JPEG and TIFF are
// made from them here. OCR is slow (seconds a page on two cores): few pages, on PGlite only (the queue and
// its race-safe last page are database-independent SQL, covered on both by the queue's own tests).
import { readFile } from 'node:fs/promises';
import fontkit from '@pdf-lib/fontkit';
import { eq } from 'drizzle-orm';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ocrEngine } from '../../../entry/registries.ts';
import { extractFacts } from '../../../src/analysis/appraisal.ts';
import { documentChunks, documents } from '../../../src/db/schema/documents.ts';
import { documentSubject } from '../../../src/documents/extract_job.ts';
import { enqueueOcrPages } from '../../../src/documents/ocr_job.ts';
import { seedCase } from '../../harness/documents.ts';
import { drainAll } from '../../harness/drain.ts';
import { grayOfPng, grayTiff, imagePdf, jpegOf, noisePng } from '../../harness/scans.ts';
import { expectOk, startTestServer, type TestServer } from '../../harness/server.ts';

const fixture = (name: string) => readFile(new URL(`../../fixtures/scans/${name}`, import.meta.url));
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

interface DocData {
  id: string;
  status: string;
  error: string | null;
  page_count: number | null;
  ocr_pages: number | null;
  unreadable_pages: number[];
}

describe('scans read by OCR [pglite]', () => {
  let s: TestServer;
  let caseId: string;
  let scanA: Uint8Array;
  let scanB: Uint8Array;
  const ids: Record<string, string> = {};

  const upload = async (name: string, bytes: Uint8Array, mediaType?: string) => {
    const data = expectOk<{ document: { id: string; media_type: string } }>(
      await s.call('ceo', 'document_upload', {
        corpus: 'case',
        case_id: caseId,
        title: name,
        content_base64: b64(bytes),
        ...(mediaType === undefined ? {} : { media_type: mediaType }),
      }),
    );
    ids[name] = data.document.id;
    return data.document;
  };
  const doc = async (name: string) =>
    expectOk<{ items: DocData[] }>(await s.call('ceo', 'document_list', { case_id: caseId })).items.find(
      (d) => d.id === ids[name],
    );
  const pages = async (name: string) =>
    expectOk<{
      pages: { page: number; text: string; ocr_confidence?: number | null; unreadable?: boolean }[];
    }>(await s.call('analyst', 'document_text_get', { document_id: ids[name] })).pages;

  beforeAll(async () => {
    s = await startTestServer();
    caseId = await seedCase(s.db.db);
    scanA = new Uint8Array(await fixture('scan-a.png'));
    scanB = new Uint8Array(await fixture('scan-b.png'));

    // The mixed PDF: a typed page, a scanned page, a scan under a garbage text layer, a page of noise.
    const mixed = await PDFDocument.create();
    mixed.registerFontkit(fontkit);
    const font = await mixed.embedFont(
      await readFile(new URL('../../fixtures/fonts/DejaVuSans.ttf', import.meta.url)),
    );
    const typed = mixed.addPage([595, 842]);
    typed.drawText('עמוד מוקלד של חוות הדעת', { x: 100, y: 700, size: 14, font });
    for (const png of [scanB, scanA, noisePng()]) {
      const img = await mixed.embedPng(png);
      const page = mixed.addPage([(img.width * 72) / 300, (img.height * 72) / 300]);
      page.drawImage(img, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
      if (png === scanA) {
        // A text layer whose font maps Hebrew glyphs to Latin-1 codes: text, but not the page's.
        const latin = await mixed.embedFont(StandardFonts.Helvetica);
        page.drawText('äîåòã ä÷åáò ìçéùåá ääùáçä äåà éåí úçéìúä ùì äúëðéú', {
          x: 5,
          y: 5,
          size: 6,
          font: latin,
        });
      }
    }

    const tiffBytes = grayTiff([grayOfPng(scanA), grayOfPng(scanB)]);
    await upload('image-only', await imagePdf([scanA]));
    await upload('mixed', await mixed.save());
    await upload('png', scanA, 'image/png');
    await upload('jpeg', jpegOf(grayOfPng(scanB)));
    await upload('tiff', tiffBytes);
    await drainAll(s);
  }, 240_000);
  afterAll(async () => {
    await s?.close();
    await ocrEngine.close();
  });

  it('reads an image-only PDF page as typed: «גוש 6638 חלקה 12», dates and amounts whole', async () => {
    const d = await doc('image-only');
    expect(d).toMatchObject({ status: 'ready', page_count: 1, ocr_pages: 1, unreadable_pages: [] });
    const [page] = await pages('image-only');
    expect(page?.text).toContain('גוש 6638 חלקה 12');
    expect(page?.text).toContain('12.1.2026');
    expect(page?.text).toContain('6,100,000 ₪');
    expect(page?.text).toContain('620 מ"ר');
  });

  it('reads a mixed PDF: the text layer where there is one, OCR for the scan and the garbage layer, noise reported', async () => {
    const d = await doc('mixed');
    expect(d).toMatchObject({ status: 'ready', page_count: 4, ocr_pages: 3, unreadable_pages: [4] });
    const p = await pages('mixed');
    expect(p[0]?.text).toBe('עמוד מוקלד של חוות הדעת');
    expect(p[1]?.text).toContain('הדיון התקיים ביום 18.2.2026 במשרדי הוועדה.');
    expect(p[2]?.text).toContain('גוש 6638 חלקה 12');
    expect(p[2]?.text).not.toContain('ä');
    expect(p[3]).toMatchObject({ text: '', unreadable: true });
    expect(p[0]?.ocr_confidence).toBeUndefined();
    expect(p[1]?.ocr_confidence).toBeGreaterThan(0.8);
    const status = expectOk<{ document: { ocr?: unknown } }>(
      await s.call('ceo', 'extraction_status', { document_id: ids.mixed }),
    );
    expect(status.document.ocr).toEqual({ pages: 3, read: 2, pending: 0, unreadable: [4] });
  });

  it('reads PNG, JPEG and each page of a two-page TIFF', async () => {
    expect(await doc('png')).toMatchObject({ status: 'ready', page_count: 1, ocr_pages: 1 });
    expect((await pages('png'))[0]?.text).toContain('שווי במצב חדש: 7,450,000 ₪');
    expect(await doc('jpeg')).toMatchObject({ status: 'ready', page_count: 1 });
    expect((await pages('jpeg'))[0]?.text).toContain('פרוטוקול ישיבת ועדת הערר');
    expect(await doc('tiff')).toMatchObject({
      status: 'ready',
      page_count: 2,
      ocr_pages: 2,
      unreadable_pages: [],
    });
    const t = await pages('tiff');
    expect(t[0]?.text).toContain('גוש 6638 חלקה 12');
    expect(t[1]?.text).toContain('18.2.2026');
  });

  it('finds a phrase from a scanned page with search_case', async () => {
    const hits = expectOk<{ items: { document_id: string; page: number }[] }>(
      await s.call('analyst', 'search_case', { case_id: caseId, query: 'חוות דעת תנועתית' }),
    ).items;
    expect(hits.some((h) => h.document_id === ids.mixed && h.page === 2)).toBe(true);
  });

  it('the appraisal extractor finds the same facts in the scan as in the typed text', async () => {
    const source = (
      await readFile(new URL('../../fixtures/scans/scan-a.txt', import.meta.url), 'utf8')
    ).trim();
    const facts = (texts: string[]) => extractFacts(texts).map((f) => [f.kind, f.value]);
    const scanned = (await pages('png')).map((p) => p.text);
    expect(facts(scanned)).toEqual(facts([source]));
    expect(facts([source]).length).toBeGreaterThan(0);
  });

  it('a page job that finds its page already read finishes the document (it stopped after storing the page)', async () => {
    const id = ids.png ?? '';
    const chunks = async () =>
      (
        await s.db.db
          .select({ n: documentChunks.chunkIndex })
          .from(documentChunks)
          .where(eq(documentChunks.documentId, id))
      ).length;
    const before = await chunks();
    expect(before).toBeGreaterThan(0);
    // The state a crash leaves between the page's own transaction and the document's index: the page is
    // read, the document still extracting, and the page's job to run again (its lease ran out).
    await s.db.db.transaction(async (tx) => {
      await tx.update(documents).set({ status: 'extracting' }).where(eq(documents.id, id));
      await enqueueOcrPages(tx, id, [1], documentSubject(id));
    });
    await drainAll(s);
    expect(await doc('png')).toMatchObject({ status: 'ready', page_count: 1, ocr_pages: 1 });
    expect((await pages('png'))[0]?.text).toContain('שווי במצב חדש: 7,450,000 ₪');
    expect(await chunks()).toBe(before);
  });
});
