// Extraction and the document library functions the upload tools call: media sniffing and caps,
// idempotent creation, extraction per type with page numbers, idempotent re-extraction, and clean
// permanent failures. On PGlite and the local PostgreSQL.
import { readFile } from 'node:fs/promises';
import { asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ToolError } from '../../src/contract/errors.ts';
import { documentBlobs, documentChunks, documentPages, documents } from '../../src/db/schema/documents.ts';
import type { Db } from '../../src/db/types.ts';
import { ExtractionError, isPermanentExtractionFailure } from '../../src/documents/errors.ts';
import {
  DOCX,
  decodeBase64Capped,
  MAX_BYTES,
  PDF,
  resolveMediaType,
  textBytesCapped,
} from '../../src/documents/media.ts';
import { extractPages } from '../../src/documents/pages.ts';
import { createDocument, extractAndIndexDocument } from '../../src/documents/pipeline.ts';
import { normalizeHebrew } from '../../src/hebrew/text.ts';
import { analyzeQuery } from '../../src/search/normalize.ts';
import { searchChunks } from '../../src/search/rank.ts';
import { fixtureBytes, fixtureDocuments, fixturePages } from '../fixtures/hebrew/corpus.ts';
import { forEachDb } from '../harness/databases.ts';
import { seedCase, seedDocument, textBytes } from '../harness/documents.ts';

const badFile = (name: string) =>
  readFile(new URL(`../fixtures/hebrew/${name}`, import.meta.url)).then((b) => new Uint8Array(b));

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    return e instanceof ToolError ? e.code : `not a ToolError: ${String(e)}`;
  }
  return undefined;
};

describe('media types and caps', () => {
  it('recognises PDF, DOCX and UTF-8 text by their bytes, whatever the declared type says', async () => {
    const pdf = await fixtureBytes('appeal', 'pdf');
    const docx = await fixtureBytes('appeal', 'docx');
    expect(resolveMediaType(pdf)).toBe(PDF);
    expect(resolveMediaType(pdf, 'application/pdf; charset=binary')).toBe(PDF);
    expect(resolveMediaType(pdf, 'application/octet-stream')).toBe(PDF);
    expect(resolveMediaType(docx)).toBe(DOCX);
    expect(resolveMediaType(textBytes('שלום'))).toBe('text/plain');
    expect(resolveMediaType(textBytes('# כותרת'), 'text/markdown')).toBe('text/markdown');
    expect(resolveMediaType(textBytes('שלום'), 'text/plain; charset=utf-8')).toBe('text/plain');
  });

  it('refuses unknown, lying and unreadable content with unsupported_media_type', async () => {
    const pdf = await fixtureBytes('appeal', 'pdf');
    const docx = await fixtureBytes('appeal', 'docx');
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const oleDoc = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9]);
    const zipNotDocx = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...textBytes('hello.txt')]);
    const cases: [Uint8Array, string | undefined][] = [
      [png, undefined],
      [png, 'image/png'],
      [oleDoc, 'application/msword'],
      [oleDoc, undefined],
      [latin1, 'text/plain'],
      [zipNotDocx, undefined],
      [docx, 'application/pdf'],
      [pdf, DOCX],
      [textBytes('just text'), 'application/pdf'],
      [pdf, 'text/plain'],
      [textBytes('שלום'), 'image/png'],
    ];
    for (const [bytes, declared] of cases) {
      expect(
        codeOf(() => resolveMediaType(bytes, declared)),
        `${declared}`,
      ).toBe('unsupported_media_type');
    }
  });

  it('refuses oversize content with payload_too_large before decoding it', () => {
    const overText = new Uint8Array(MAX_BYTES['text/plain'] + 1).fill(0x61);
    expect(codeOf(() => resolveMediaType(overText))).toBe('payload_too_large');
    expect(codeOf(() => textBytesCapped('א'.repeat(MAX_BYTES['text/plain'])))).toBe('payload_too_large');
    expect(textBytesCapped('שלום')).toEqual(textBytes('שלום'));
    // 28 MiB of base64 would decode past every cap: refused by its length alone (and it is not even valid).
    expect(codeOf(() => decodeBase64Capped('!'.repeat(28 * 1024 * 1024)))).toBe('payload_too_large');
    expect(codeOf(() => decodeBase64Capped('not base64!'))).toBe('invalid_args');
    expect(decodeBase64Capped(btoa('%PDF-1.7'))).toEqual(textBytes('%PDF-1.7'));
  });
});

describe('extractPages', () => {
  it('keeps the pages of every fixture in PDF, DOCX and text, text equal to the source', async () => {
    for (const f of fixtureDocuments) {
      const source = await fixturePages(f.name);
      for (const [ext, type] of [
        ['pdf', PDF],
        ['docx', DOCX],
        ['txt', 'text/plain'],
      ] as const) {
        const pages = await extractPages(await fixtureBytes(f.name, ext), type);
        expect(pages.map(normalizeHebrew), `${f.name}.${ext}`).toEqual(source.map(normalizeHebrew));
      }
    }
  });

  it('treats text without form feeds as one page and drops a BOM and trailing blank pages', async () => {
    expect(await extractPages(textBytes('\uFEFFשורה\r\nשנייה'), 'text/plain')).toEqual(['שורה\nשנייה']);
    expect(await extractPages(textBytes('א\fב\f\n'), 'text/markdown')).toEqual(['א', 'ב']);
  });

  it('fails permanently on encrypted, broken and empty files', async () => {
    const failure = async (bytes: Uint8Array, type: typeof PDF | typeof DOCX | 'text/plain') => {
      try {
        await extractPages(bytes, type);
      } catch (e) {
        expect(isPermanentExtractionFailure(e)).toBe(true);
        return (e as ExtractionError).failure;
      }
      return 'no error';
    };
    expect(await failure(await badFile('encrypted.pdf'), PDF)).toBe('encrypted');
    expect(await failure(await badFile('broken.pdf'), PDF)).toBe('broken');
    const docx = await fixtureBytes('appeal', 'docx');
    expect(await failure(docx.subarray(0, docx.length - 30), DOCX)).toBe('broken');
    expect(await failure(textBytes(' \n\f  '), 'text/plain')).toBe('no_text');
    expect(isPermanentExtractionFailure(new Error('connection reset'))).toBe(false);
  });
});

forEachDb('documents: create and extract', (getDb) => {
  const pagesOf = async (db: Db, id: string) =>
    db.select().from(documentPages).where(eq(documentPages.documentId, id)).orderBy(asc(documentPages.page));
  const chunksOf = async (db: Db, id: string) =>
    db
      .select()
      .from(documentChunks)
      .where(eq(documentChunks.documentId, id))
      .orderBy(asc(documentChunks.chunkIndex));

  it('creates a document once per (corpus, case, sha256); the same bytes again return it with created=false', async () => {
    const { db } = getDb();
    const caseId = await seedCase(db);
    const bytes = await fixtureBytes('response', 'pdf');
    const first = await createDocument(db, {
      corpus: 'case',
      caseId,
      bytes,
      title: 'תשובה',
      createdBy: 'analyst',
    });
    expect(first.created).toBe(true);
    expect(first.document).toMatchObject({
      status: 'pending',
      mediaType: PDF,
      byteSize: bytes.length,
      caseId,
    });
    expect(first.document.sha256).toMatch(/^[0-9a-f]{64}$/);
    const again = await createDocument(db, {
      corpus: 'case',
      caseId,
      bytes,
      title: 'כותרת אחרת',
      createdBy: 'qa',
    });
    expect(again).toEqual({ created: false, document: first.document });
    // Another case, or another corpus, is another document; a null case_id counts as equal to itself.
    const otherCase = await createDocument(db, {
      corpus: 'case',
      caseId: await seedCase(db),
      bytes,
      title: 'x',
      createdBy: 't',
    });
    expect(otherCase.created).toBe(true);
    const lib1 = await createDocument(db, {
      corpus: 'library',
      caseId: null,
      bytes,
      title: 'x',
      createdBy: 't',
    });
    const lib2 = await createDocument(db, {
      corpus: 'library',
      caseId: null,
      bytes,
      title: 'y',
      createdBy: 't',
    });
    expect([lib1.created, lib2.created, lib2.document.id]).toEqual([true, false, lib1.document.id]);
  });

  it('creates one document under 20 concurrent identical calls', async () => {
    const { db } = getDb();
    const bytes = textBytes(`מסמך מקבילי ${crypto.randomUUID()}`);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        createDocument(db, { corpus: 'style', caseId: null, bytes, title: 'מקבילי', createdBy: 'writer' }),
      ),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.document.id)).size).toBe(1);
  });

  it('writes nothing for refused bytes', async () => {
    const { db } = getDb();
    const [before] = await db.select({ n: sql<number>`count(*)::int` }).from(documents);
    await expect(
      createDocument(db, {
        corpus: 'style',
        caseId: null,
        bytes: new Uint8Array([0xff, 0xfe, 0]),
        title: 'x',
        createdBy: 't',
      }),
    ).rejects.toMatchObject({ code: 'unsupported_media_type' });
    const [after] = await db.select({ n: sql<number>`count(*)::int` }).from(documents);
    expect(after?.n).toBe(before?.n);
  });

  it('extracts a PDF with its page numbers: a phrase on page 2 is found on page 2', async () => {
    const { db } = getDb();
    const caseId = await seedCase(db);
    const doc = await seedDocument(db, {
      corpus: 'case',
      caseId,
      bytes: await fixtureBytes('appraisal', 'pdf'),
    });
    expect(doc).toMatchObject({ status: 'ready', pageCount: 3, error: null });
    const pages = await pagesOf(db, doc.id);
    expect(pages.map((p) => p.page)).toEqual([1, 2, 3]);
    expect(pages[1]?.text).toContain('עסקאות השוואה');
    expect(pages[0]?.text).not.toContain('עסקאות השוואה');
    const hits = await searchChunks(db, { corpus: 'case', caseId }, analyzeQuery('עסקאות השוואה'), {
      limit: 5,
      offset: 0,
    });
    expect(hits[0]).toMatchObject({ documentId: doc.id, page: 2 });
    const deduction = await searchChunks(
      db,
      { corpus: 'case', caseId },
      analyzeQuery('הפחתה נוספת בשל העץ לשימור'),
      {
        limit: 1,
        offset: 0,
      },
    );
    expect(deduction[0]?.page).toBe(3);
  });

  it('takes DOCX page breaks as pages', async () => {
    const { db } = getDb();
    const doc = await seedDocument(db, {
      corpus: 'style',
      caseId: null,
      bytes: await fixtureBytes('appeal', 'docx'),
    });
    expect(doc).toMatchObject({ status: 'ready', pageCount: 3 });
    const pages = await pagesOf(db, doc.id);
    expect(pages[2]?.text).toContain('הסעדים המבוקשים');
  });

  it('is idempotent: extracting again, even concurrently, leaves the same pages and chunks', async () => {
    const { db } = getDb();
    const doc = await seedDocument(db, {
      corpus: 'style',
      caseId: null,
      bytes: await fixtureBytes('response', 'txt'),
    });
    const pages = await pagesOf(db, doc.id);
    const chunks = await chunksOf(db, doc.id);
    expect(chunks.length).toBeGreaterThan(0);
    await extractAndIndexDocument(db, doc.id);
    // PGlite runs one connection, so "concurrent" interleaves only there; PostgreSQL really races.
    await Promise.all([extractAndIndexDocument(db, doc.id), extractAndIndexDocument(db, doc.id)]);
    expect(await pagesOf(db, doc.id)).toEqual(pages);
    expect(await chunksOf(db, doc.id)).toEqual(chunks);
  });

  it('marks an encrypted PDF failed with a clear error, indexes nothing, and throws a permanent error', async () => {
    const { db } = getDb();
    const { document } = await createDocument(db, {
      corpus: 'library',
      caseId: null,
      bytes: await badFile('encrypted.pdf'),
      title: 'מוצפן',
      createdBy: 'test',
    });
    const err = await extractAndIndexDocument(db, document.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionError);
    expect(err).toMatchObject({ failure: 'encrypted', permanent: true });
    const [row] = await db.select().from(documents).where(eq(documents.id, document.id));
    expect(row).toMatchObject({ status: 'failed', pageCount: null });
    expect(row?.error).toMatch(/encrypted/);
    expect(await pagesOf(db, document.id)).toEqual([]);
    expect(await chunksOf(db, document.id)).toEqual([]);
  });

  it('marks a broken PDF failed and removes what an earlier extraction had indexed', async () => {
    const { db } = getDb();
    const doc = await seedDocument(db, {
      corpus: 'style',
      caseId: null,
      bytes: textBytes('טקסט תקין לגמרי'),
    });
    expect((await chunksOf(db, doc.id)).length).toBe(1);
    // Swap the stored bytes for a broken PDF (as if re-extracting a document whose bytes cannot be read).
    await db
      .update(documentBlobs)
      .set({ bytes: await badFile('broken.pdf') })
      .where(eq(documentBlobs.documentId, doc.id));
    await db.update(documents).set({ mediaType: PDF }).where(eq(documents.id, doc.id));
    await expect(extractAndIndexDocument(db, doc.id)).rejects.toMatchObject({
      failure: 'broken',
      permanent: true,
    });
    const [row] = await db.select().from(documents).where(eq(documents.id, doc.id));
    expect(row?.status).toBe('failed');
    expect(row?.error).toMatch(/PDF cannot be read/);
    expect(await pagesOf(db, doc.id)).toEqual([]);
    expect(await chunksOf(db, doc.id)).toEqual([]);
  });

  it('reports a document that no longer exists as a permanent failure', async () => {
    const { db } = getDb();
    await expect(extractAndIndexDocument(db, crypto.randomUUID())).rejects.toMatchObject({
      failure: 'document_missing',
      permanent: true,
    });
  });
});
