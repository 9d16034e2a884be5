// The reader pool of `npm start` (src/documents/reader_pool.ts): documents parsed in worker threads while the
// app answers other agents, on PGlite with the in-process drain loop; a thread that hangs, crashes or runs
// out of memory ends in a clear `failed` document and the next document is read; shutdown leaves no thread.
import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeJobHandlers } from '../../entry/registries.ts';
import { type DocumentRow, documents } from '../../src/db/schema/documents.ts';
import { jobs } from '../../src/db/schema/jobs.ts';
import type { DbHandle } from '../../src/db/types.ts';
import { ExtractionError } from '../../src/documents/errors.ts';
import { DOCUMENT_EXTRACT, enqueueDocumentExtraction } from '../../src/documents/extract_job.ts';
import { extractPages, readPageImage } from '../../src/documents/pages.ts';
import { createDocument } from '../../src/documents/pipeline.ts';
import { createReaderPool, type ReaderPool } from '../../src/documents/reader_pool.ts';
import { allExtractors } from '../../src/extractors/all.ts';
import { normalizeHebrew } from '../../src/hebrew/text.ts';
import { drainJobs } from '../../src/jobs/drain.ts';
import { type DrainLoop, startDrainLoop } from '../../src/jobs/loop.ts';
import { createLogger } from '../../src/log.ts';
import { fixtureBytes, fixturePages } from '../fixtures/hebrew/corpus.ts';
import { bigPdf, bigPdfPageSource, pageStamp } from '../harness/big_pdf.ts';
import { createTestDb } from '../harness/databases.ts';
import { seedCase, textBytes } from '../harness/documents.ts';
import { imagePdf } from '../harness/scans.ts';
import { expectOk, startTestServer, type TestServer } from '../harness/server.ts';

const log = createLogger('silent');
const PDF = 'application/pdf';
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const misbehaving = new URL('./misbehaving_reader.ts', import.meta.url);

describe('reading in threads beside the agents (PGlite, in-process drain loop)', () => {
  let s: TestServer;
  let pool: ReaderPool;
  let loop: DrainLoop;

  beforeAll(async () => {
    pool = createReaderPool({ threads: 1 });
    const handlers = makeJobHandlers({ reader: pool, finder: pool });
    // Over a real socket, as agents call: requests arrive as I/O, between the reader's own steps.
    s = await startTestServer({ db: 'pglite', socket: true, jobHandlers: handlers, kick: () => loop.kick() });
    loop = startDrainLoop({ db: s.db.db, handlers, log, intervalMs: 3_600_000 });
  });
  afterAll(async () => {
    await loop.stop();
    await pool.close();
    await s.close();
  });

  it('answers case_get while a 120-page PDF is read, and reads every page of it', async () => {
    const created = expectOk<{ case: { id: string } }>(
      await s.call('ceo', 'case_create', { case_number: 'ערר 7001/26', title: 'קריאה ברקע' }),
    );
    const caseId = created.case.id;
    const tag = crypto.randomUUID().slice(0, 8);
    const upload = expectOk<{ document: { id: string } }>(
      await s.call('ceo', 'document_upload', {
        corpus: 'case',
        case_id: caseId,
        title: 'נספחים',
        content_base64: b64(await bigPdf(120, tag)),
      }),
    );
    const statusOf = async () =>
      (await s.db.db.select().from(documents).where(eq(documents.id, upload.document.id)))[0]?.status;
    // Calls answered between two looks that both saw the document being read.
    let answeredWhileReading = 0;
    let threadsSeen = 0;
    for (;;) {
      const before = await statusOf();
      const got = expectOk<{ case: { id: string } }>(await s.call('ceo', 'case_get', { case_id: caseId }));
      expect(got.case.id).toBe(caseId);
      threadsSeen = Math.max(threadsSeen, pool.liveThreads());
      const after = await statusOf();
      if (before === 'extracting' && after === 'extracting') answeredWhileReading++;
      if (after === 'ready' || after === 'failed') break;
    }
    expect(await statusOf()).toBe('ready');
    expect(answeredWhileReading).toBeGreaterThan(0);
    expect(threadsSeen).toBe(1);

    const sourceOf = await bigPdfPageSource();
    for (const page of [1, 2, 3, 60, 119, 120]) {
      const got = expectOk<{ page_count: number; pages: { page: number; text: string }[] }>(
        await s.call('analyst', 'document_text_get', {
          document_id: upload.document.id,
          from_page: page,
          to_page: page,
        }),
      );
      expect(got.page_count).toBe(120);
      const text = got.pages[0]?.text ?? '';
      expect(normalizeHebrew(text)).toContain(normalizeHebrew(sourceOf(page)));
      expect(text).toContain(pageStamp(page, tag));
    }
    const [row] = await s.db.db.select().from(documents).where(eq(documents.id, upload.document.id));
    expect(row?.pageCount).toBe(120);
    // The reader threads run below the agents' priority and the index is written in slices, so on a machine busy
    // with the rest of the suite a 120-page read takes longer than the default 30 s: the bound is the machine's.
  }, 120_000);
});

describe('the extractors’ rules in a reader thread', () => {
  let pool: ReaderPool;
  beforeAll(() => {
    pool = createReaderPool({ threads: 1 });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('finds in the thread what each extractor finds in-line, for every extractor with a pure part', async () => {
    const pages = await fixturePages('appeal');
    const document = { id: crypto.randomUUID(), corpus: 'case' as const, caseId: null, role: null };
    const withFind = allExtractors.filter((e) => e.find !== undefined);
    expect(withFind.map((e) => e.kind)).toEqual(
      expect.arrayContaining([
        'reference_extract',
        'claim_extract',
        'appraiser_fact_extract',
        'citation_extract',
      ]),
    );
    for (const e of withFind) {
      const input = e.kind === 'citation_extract' ? ['ערר 1234/25'] : undefined;
      const inline = e.find?.(document, pages, input);
      expect(await pool.find(e.kind, document, pages, input), e.kind).toEqual(inline);
    }
    // The appeal's claims are really there: the comparison is not of two empty lists.
    expect(await pool.find('claim_extract', document, pages, undefined)).not.toHaveLength(0);
  });

  it("renders a scanned page's image in the thread as in-line, and a page past the end fails as in-line", async () => {
    const scan = new Uint8Array(await readFile(new URL('../fixtures/scans/scan-a.png', import.meta.url)));
    const pdf = await imagePdf([scan, scan]);
    const inline = await readPageImage(pdf, PDF, 2);
    expect(inline?.length).toBeGreaterThan(1000);
    expect(await pool.pageImage(pdf, PDF, 2)).toEqual(inline);
    await expect(pool.pageImage(pdf, PDF, 3)).rejects.toMatchObject({ failure: 'broken', permanent: true });
  });

  it('refuses a kind no extractor has, and reads the next document after it', async () => {
    await expect(
      pool.find('no_such_extract', { id: 'x', corpus: 'case', caseId: null, role: null }, [], undefined),
    ).rejects.toThrow(/no_such_extract/);
    const read = await pool.read(await fixtureBytes('appeal', 'pdf'), PDF);
    expect(read.pages.length).toBeGreaterThan(0);
  });

  it('gives a case file the same claims through the job with the thread as without it', async () => {
    const run = async (finder: ReaderPool | undefined) => {
      const s = await startTestServer({
        db: 'pglite',
        jobHandlers: makeJobHandlers(finder ? { finder } : {}),
      });
      try {
        const caseId = await seedCase(s.db.db);
        const up = expectOk<{ document: { id: string } }>(
          await s.call('ceo', 'document_upload', {
            corpus: 'case',
            case_id: caseId,
            title: 'כתב ערר',
            content_base64: b64(await fixtureBytes('appeal', 'txt')),
          }),
        );
        for (;;) {
          const ran = expectOk<{ claimed: number }>(await s.call('ceo', 'extraction_run', { max_jobs: 20 }));
          if (ran.claimed === 0) break;
        }
        const got = expectOk<{ items: { party: string; source: { text: string } }[] }>(
          await s.call('ceo', 'claim_list', { case_id: caseId, document_id: up.document.id }),
        );
        return got.items.map((c) => `${c.party}: ${c.source.text}`).sort();
      } finally {
        await s.close();
      }
    };
    const threaded = await run(pool);
    expect(threaded.length).toBeGreaterThan(0);
    expect(threaded).toEqual(await run(undefined));
  });
});

describe('a reader thread that misbehaves', () => {
  let handle: DbHandle;
  let pool: ReaderPool;
  let caseId: string;

  beforeAll(async () => {
    handle = await createTestDb('pglite');
    caseId = await seedCase(handle.db);
  });
  afterEach(async () => {
    await pool.close();
    expect(pool.liveThreads()).toBe(0);
  });
  afterAll(() => handle.close());

  const queue = async (bytes: Uint8Array) => {
    const { document } = await createDocument(handle.db, {
      corpus: 'case',
      caseId,
      bytes,
      title: 'מסמך',
      createdBy: 'test',
    });
    await enqueueDocumentExtraction(handle.db, document.id);
    return document.id;
  };
  const drain = () =>
    drainJobs({
      db: handle.db,
      handlers: makeJobHandlers({ reader: pool }),
      workerId: 'test',
      log,
      concurrency: 1,
    });
  const row = async (id: string): Promise<DocumentRow | undefined> =>
    (await handle.db.select().from(documents).where(eq(documents.id, id)))[0];
  const jobOf = async (id: string) => (await handle.db.select().from(jobs).where(eq(jobs.dedupeKey, id)))[0];

  it('a hang ends its thread at the time cap: failed with reason timeout, and the next document is read', async () => {
    // The cap is the pool's setting (60 s in production); a short one keeps the suite quick.
    pool = createReaderPool({ threads: 1, timeoutMs: 1_000, script: misbehaving });
    const stuck = await queue(textBytes(`HANG ${crypto.randomUUID()}`));
    const fine = await queue(textBytes(`החלטה שנקראת אחרי ${crypto.randomUUID()}`));
    const report = await drain();
    expect(report.dead).toBe(1);
    const failed = await row(stuck);
    expect(failed?.status).toBe('failed');
    expect(failed?.error).toMatch(/too slow to read: reading took longer than 1 s/);
    expect((await jobOf(stuck))?.state).toBe('dead');
    expect((await row(fine))?.status).toBe('ready');
  });

  it('a crash fails that document (broken, saying what to do) and the next document is read', async () => {
    pool = createReaderPool({ threads: 1, script: misbehaving });
    const crashing = await queue(textBytes(`CRASH ${crypto.randomUUID()}`));
    const fine = await queue(textBytes(`החלטה שנקראת אחרי ${crypto.randomUUID()}`));
    await drain();
    const failed = await row(crashing);
    expect(failed?.status).toBe('failed');
    expect(failed?.error).toMatch(
      /The reader stopped while reading the document \(exit code 7\).*save it again/,
    );
    expect((await jobOf(crashing))?.state).toBe('dead');
    expect((await row(fine))?.status).toBe('ready');
  });

  it('a thread past its heap cap fails the document too_large, and the next document is read', async () => {
    pool = createReaderPool({ threads: 1, maxHeapMb: 32, script: misbehaving });
    const hog = await queue(textBytes(`HOG ${crypto.randomUUID()}`));
    const fine = await queue(textBytes(`החלטה שנקראת אחרי ${crypto.randomUUID()}`));
    await drain();
    const failed = await row(hog);
    expect(failed?.status).toBe('failed');
    expect(failed?.error).toMatch(/more memory to read than a reader is allowed/);
    expect((await row(fine))?.status).toBe('ready');
  });

  it("the reader's own failures cross the thread as they are (a broken PDF is failed as in-line)", async () => {
    pool = createReaderPool({ threads: 1 });
    const bytes = await fixtureBytes('broken', 'pdf');
    const inline = await extractPages(bytes, PDF).then(
      () => null,
      (e: unknown) => e,
    );
    const threaded = await pool.read(bytes, PDF).then(
      () => null,
      (e: unknown) => e,
    );
    expect(inline).toBeInstanceOf(ExtractionError);
    expect(threaded).toBeInstanceOf(ExtractionError);
    expect((threaded as ExtractionError).failure).toBe((inline as ExtractionError).failure);
    expect((threaded as ExtractionError).message).toBe((inline as ExtractionError).message);
    expect((threaded as ExtractionError).permanent).toBe(true);
  });
});

describe('shutdown', () => {
  it('close ends every thread; a read in flight fails transiently (it runs again) and later reads are refused', async () => {
    const pool = createReaderPool({ threads: 2, script: misbehaving });
    const inFlight = [
      pool.read(textBytes('HANG one'), 'text/plain'),
      pool.read(textBytes('HANG two'), 'text/plain'),
      pool.read(textBytes('HANG three'), 'text/plain'),
    ].map((p) =>
      p.then(
        () => null,
        (e: unknown) => e,
      ),
    );
    expect(pool.liveThreads()).toBe(2);
    await pool.close();
    expect(pool.liveThreads()).toBe(0);
    for (const error of await Promise.all(inFlight)) {
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(ExtractionError);
      expect((error as Error).message).toMatch(/reader is closed/);
    }
    await expect(pool.read(textBytes('late'), 'text/plain')).rejects.toThrow(/reader is closed/);
  });

  it("the drain loop's stop aborts the read in hand: the job waits for a retry, the document is not failed, no thread is left", async () => {
    const handle = await createTestDb('pglite');
    const pool = createReaderPool({ threads: 1, script: misbehaving });
    try {
      const caseId = await seedCase(handle.db);
      const { document } = await createDocument(handle.db, {
        corpus: 'case',
        caseId,
        bytes: textBytes(`HANG ${crypto.randomUUID()}`),
        title: 'מסמך',
        createdBy: 'test',
      });
      await enqueueDocumentExtraction(handle.db, document.id);
      const loop = startDrainLoop({
        db: handle.db,
        handlers: makeJobHandlers({ reader: pool }),
        log,
        intervalMs: 3_600_000,
      });
      // Stop once the thread has the document (the job is running and its read started).
      while (pool.liveThreads() === 0) await new Promise((r) => setTimeout(r, 20));
      await loop.stop();
      await pool.close();
      expect(pool.liveThreads()).toBe(0);
      const [job] = await handle.db.select().from(jobs).where(eq(jobs.dedupeKey, document.id));
      expect(job?.kind).toBe(DOCUMENT_EXTRACT);
      expect(job?.state).toBe('pending');
      const [doc] = await handle.db.select().from(documents).where(eq(documents.id, document.id));
      expect(doc?.status).not.toBe('failed');
    } finally {
      await pool.close();
      await handle.close();
    }
  });
});
