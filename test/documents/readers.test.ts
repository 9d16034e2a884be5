// The readers' caps on their own (no database): the ZIP reader counts inflated bytes whatever the headers
// claim, on both DOCX paths (uploads and the chair's final version); the PDF read has a time limit.
import { describe, expect, it } from 'vitest';
import { flateBombPdf, manyPagesPdf, zipBombDocx, zipOf } from '../../scripts/fixtures/hostile.ts';
import { ExtractionError } from '../../src/documents/errors.ts';
import { extractPdfPages } from '../../src/documents/pdf.ts';
import { checkPdfStreams } from '../../src/documents/pdf_streams.ts';
import { readZipEntries, ZipError } from '../../src/documents/zip.ts';
import { readDocx } from '../../src/drafting/docx_reader.ts';
import { readZipTexts, zipNames } from '../../src/drafting/zip.ts';

const enc = new TextEncoder();

describe('the bounded ZIP reader', () => {
  it('stops a part that inflates past the cap, though its headers claim 4 KB', async () => {
    const bomb = zipBombDocx(16);
    expect(bomb.length).toBeLessThan(100_000);
    const read = readZipEntries(bomb, (n) => n === 'word/document.xml', {
      maxInflatedBytes: 4 * 1024 * 1024,
    });
    await expect(read).rejects.toThrow(ZipError);
    await expect(read).rejects.toThrow(/inflates past 4194304 bytes \(at word\/document.xml\)/);
    // Under a larger cap the same part is read whole: the cap, not the claimed size, decides.
    const parts = await readZipEntries(bomb, (n) => n === 'word/document.xml', {
      maxInflatedBytes: 17 * 1024 * 1024,
    });
    expect(parts.get('word/document.xml')?.length).toBe(16 * 1024 * 1024);
  });

  it('the final-version reader refuses the 1 GiB bomb too', async () => {
    await expect(readDocx(zipBombDocx())).rejects.toMatchObject({ failure: 'too_large' });
  });

  it('reads stored and deflated entries, and names them in order', async () => {
    const zip = zipOf([
      { name: 'a.txt', data: enc.encode('שלום'), method: 0 },
      { name: 'b.txt', data: new Uint8Array([0x2b, 0x49, 0x2d, 0x2e, 0x01, 0x00]), method: 8 },
    ]);
    expect(zipNames(zip)).toEqual(['a.txt', 'b.txt']);
    expect(await readZipTexts(zip, ['a.txt', 'b.txt'])).toEqual(
      new Map([
        ['a.txt', 'שלום'],
        ['b.txt', 'test'],
      ]),
    );
  });

  it('refuses too many entries, bytes that are no archive, and a truncated one', async () => {
    const many = zipOf(
      Array.from({ length: 20 }, (_, i) => ({ name: `f${i}`, data: new Uint8Array(1), method: 0 as const })),
    );
    await expect(readZipEntries(many, () => true, { maxInflatedBytes: 1e6, maxEntries: 10 })).rejects.toThrow(
      /more than 10 entries/,
    );
    await expect(
      readZipEntries(enc.encode('not a zip at all'), () => true, { maxInflatedBytes: 1e6 }),
    ).rejects.toThrow(/no entries/);
    // The names alone (nothing inflated) are read the same way.
    expect(() => zipNames(enc.encode('not a zip at all'))).toThrow(/no entries/);
    const big = zipOf([{ name: 'x', data: new Uint8Array(10_000), method: 0 }]);
    await expect(
      readZipEntries(big.subarray(0, 5_000), () => true, { maxInflatedBytes: 1e6 }),
    ).rejects.toThrow(
      expect.objectContaining({
        failure: 'broken',
        message: expect.stringMatching(/truncated|Not a readable ZIP/),
      }),
    );
  });
});

describe('the PDF time limit', () => {
  it('measuring a bomb lets other work run: a timer set before it fires while it measures', async () => {
    let fired = 0;
    const timer = setInterval(() => fired++, 10);
    const err = await checkPdfStreams(flateBombPdf(256), {
      maxInflatedBytes: 128 * 1024 * 1024,
      maxImagePixels: 1e8,
    }).catch((e: unknown) => e);
    clearInterval(timer);
    expect(err).toMatchObject({ failure: 'too_large' });
    expect(fired).toBeGreaterThan(0);
  });

  it('a read past its time fails with `timeout` and says where it stopped', async () => {
    const err = await extractPdfPages(manyPagesPdf(1500), { timeLimitMs: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionError);
    expect(err).toMatchObject({ failure: 'timeout', permanent: true });
    expect((err as Error).message).toMatch(
      /too slow to read: (opening|reading) the PDF took longer than 0.001 s/,
    );
  });
});
