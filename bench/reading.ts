/**
 * Reading beside the agents (part of `npm run bench`; alone: `node bench/reading.ts`): the p99 of `case_get`
 * over loopback HTTP on an idle server, then while 60-page PDFs are being read, on the app of `npm start`
 * (PGlite in memory, the in-process drain loop). Each way of reading a document runs on a server of its
 * own in the same run: `inline` parses on the server's own thread (the Workers way); `threads` through the
 * reader pool of worker threads (the Node way, src/documents/reader_pool.ts). The ratio is the p99 while
 * reading over the idle p99 of the same server. BENCH_READING_DOCS (3) documents of BENCH_READING_PAGES
 * (60) pages are read one after the other; `case_get` is called in sequence all the while. Then, on the
 * threads' server, one scan (an image-only PDF of BENCH_READING_SCAN_PAGES pages, 60 alone; `npm run bench`
 * reads 12 unless it is set, OCR taking about a second a page): its pages rendered in the reader threads
 * and read by Tesseract's own worker thread, one OCR job a page, as on `npm start`.
 * BENCH_READING_TRACE=1 also lists the transactions that held the connection over BENCH_READING_TRACE_MS (20).
 */
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { eq } from 'drizzle-orm';
import { makeJobHandlers, ocrEngine, tools } from '../entry/registries.ts';
import { loadAgentsFromDir } from '../src/agents/load_node.ts';
import { mintToken } from '../src/auth/tokens.ts';
import { migrateDb } from '../src/db/migrate.ts';
import { openPglite } from '../src/db/pglite.ts';
import { documents } from '../src/db/schema/documents.ts';
import type { ReaderPool } from '../src/documents/reader_pool.ts';
import { startDrainLoop } from '../src/jobs/loop.ts';
import { createLogger } from '../src/log.ts';
import { createChambers } from '../src/server.ts';
import { bigPdf } from '../test/harness/big_pdf.ts';
import { imagePdf } from '../test/harness/scans.ts';
import { listen, root } from './app.ts';

const DOCS = Number(process.env.BENCH_READING_DOCS ?? 3);
const PAGES = Number(process.env.BENCH_READING_PAGES ?? 60);
const IDLE_CALLS = Number(process.env.BENCH_READING_IDLE_CALLS ?? 400);
const SCAN_PAGES = Number(process.env.BENCH_READING_SCAN_PAGES ?? 60);

/** An image-only PDF of `pages` pages, the fixture scans in turn (what a scanner writes). */
async function scanPdf(pages: number): Promise<Uint8Array> {
  const scans = await Promise.all(
    ['scan-a.png', 'scan-b.png'].map(
      async (f) => new Uint8Array(await readFile(new URL(`../test/fixtures/scans/${f}`, import.meta.url))),
    ),
  );
  return imagePdf(Array.from({ length: pages }, (_, i) => scans[i % scans.length] ?? new Uint8Array()));
}

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

interface Figures {
  idleP50: number;
  idleP99: number;
  readingP50: number;
  readingP99: number;
  readingMax: number;
  samples: number;
  readMs: number;
}

/** A transaction that held PGlite's one connection longer than TRACE_MS, and what it ran first. */
interface HeldTransaction {
  ms: number;
  statements: number;
  first: string;
}

const TRACE = process.env.BENCH_READING_TRACE === '1';
const TRACE_MS = Number(process.env.BENCH_READING_TRACE_MS ?? 20);

/**
 * Times every transaction from the moment it holds the connection (PGlite runs one at a time, so for that
 * long every other query waits) to its end; those past TRACE_MS are kept with their first statements.
 */
function traceTransactions(client: PGlite, held: HeldTransaction[]): void {
  const transaction = client.transaction.bind(client);
  client.transaction = (callback) =>
    transaction(async (tx) => {
      const started = performance.now();
      const statements: string[] = [];
      const query = tx.query.bind(tx);
      tx.query = ((sql: string, ...rest: unknown[]) => {
        statements.push(sql.replace(/\s+/g, ' ').slice(0, 60));
        return (query as (...args: unknown[]) => ReturnType<typeof tx.query>)(sql, ...rest);
      }) as typeof tx.query;
      try {
        return await callback(tx);
      } finally {
        const ms = performance.now() - started;
        if (ms > TRACE_MS) {
          held.push({ ms, statements: statements.length, first: statements.slice(0, 4).join(' | ') });
        }
      }
    });
}

/** The documents a run reads: the text PDFs, or one scan. */
type Workload = { kind: 'text'; docs: number; pages: number } | { kind: 'scan'; pages: number };

async function measure(reader: 'inline' | 'threads', workload: Workload): Promise<Figures> {
  const handle = await openPglite();
  const held: HeldTransaction[] = [];
  if (TRACE) traceTransactions(handle.client, held);
  await migrateDb(handle);
  let pool: ReaderPool | undefined;
  if (reader === 'threads') pool = (await import('../src/documents/reader_pool.ts')).createReaderPool();
  // Threads read the documents and run the extractors' rules, as on `npm start`.
  const handlers = makeJobHandlers(pool === undefined ? {} : { reader: pool, finder: pool });
  const loop = startDrainLoop({ db: handle.db, handlers, log: createLogger('silent') });
  const { app } = createChambers({
    agents: await loadAgentsFromDir(`${root}agents`),
    env: { RATE_LIMIT_PER_SECOND: '0', LOG_LEVEL: 'silent' },
    services: async () => ({
      db: handle.db,
      kv: (await import('../src/kv/postgres.ts')).createPostgresKv(handle.db),
    }),
    tools,
    jobHandlers: handlers,
    defaultOwnerGate: 'ack',
    kick: () => loop.kick(),
  });
  const server = await listen(app.fetch);
  const token = await mintToken(handle.db, 'ceo', 'bench');
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const v1 = async (tool: string, args: unknown) => {
    const res = await fetch(`${server.url}/v1/tools/${tool}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(args),
    });
    const body = (await res.json()) as { ok: boolean; data: Record<string, unknown>; error?: unknown };
    if (!body.ok) throw new Error(`${tool} failed: ${JSON.stringify(body.error)}`);
    return body.data;
  };
  try {
    const created = (await v1('case_create', { case_number: 'ערר 902/26', title: 'קריאה ברקע' })) as {
      case: { id: string };
    };
    const caseId = created.case.id;
    const timedGet = async () => {
      const t = performance.now();
      await v1('case_get', { case_id: caseId });
      return performance.now() - t;
    };
    for (let i = 0; i < 50; i++) await timedGet();
    const idle: number[] = [];
    for (let i = 0; i < IDLE_CALLS; i++) idle.push(await timedGet());

    const reading: number[] = [];
    let readMs = 0;
    const docs = workload.kind === 'text' ? workload.docs : 1;
    for (let d = 0; d < docs; d++) {
      const bytes =
        workload.kind === 'text'
          ? await bigPdf(workload.pages, `${reader}-${d}-${crypto.randomUUID()}`)
          : await scanPdf(workload.pages);
      const upload = (await v1('document_upload', {
        corpus: 'case',
        case_id: caseId,
        title: `מסמך ארוך ${d + 1}`,
        content_base64: Buffer.from(bytes).toString('base64'),
      })) as { document: { id: string } };
      const started = performance.now();
      const statusOf = async () =>
        (
          await handle.db
            .select({ status: documents.status, error: documents.error })
            .from(documents)
            .where(eq(documents.id, upload.document.id))
        )[0];
      for (;;) {
        reading.push(await timedGet());
        if (reading.length % 5 !== 0) continue;
        const row = await statusOf();
        if (row?.status === 'ready') break;
        if (row?.status === 'failed') throw new Error(`the bench document failed: ${row.error}`);
      }
      readMs += performance.now() - started;
    }
    if (TRACE) {
      console.log(`  ${reader}: ${held.length} transactions held the connection over ${TRACE_MS} ms`);
      for (const h of held.sort((a, b) => b.ms - a.ms).slice(0, 25)) {
        console.log(
          `    ${h.ms.toFixed(1).padStart(7)} ms, ${String(h.statements).padStart(4)} statements: ${h.first}`,
        );
      }
    }
    return {
      idleP50: percentile(idle, 50),
      idleP99: percentile(idle, 99),
      readingP50: percentile(reading, 50),
      readingP99: percentile(reading, 99),
      readingMax: Math.max(...reading),
      samples: reading.length,
      readMs: readMs / docs,
    };
  } finally {
    await loop.stop();
    await pool?.close();
    // Tesseract's worker, started by the scan's first page (a no-op when none was read).
    await ocrEngine.close();
    await server.close();
    await handle.close();
  }
}

export async function runReadingBench(options: { scanPages?: number } = {}): Promise<Record<string, string>> {
  const scanPages = options.scanPages ?? SCAN_PAGES;
  console.log(
    `\nReading beside the agents: case_get over loopback HTTP while ${DOCS} PDFs of ${PAGES} pages are read, then a scan of ${scanPages} pages (PGlite in memory, in-process drain loop)`,
  );
  const out: Record<string, string> = {};
  const runs = [
    { name: 'inline', reader: 'inline', workload: { kind: 'text', docs: DOCS, pages: PAGES } },
    { name: 'threads', reader: 'threads', workload: { kind: 'text', docs: DOCS, pages: PAGES } },
    { name: 'scan', reader: 'threads', workload: { kind: 'scan', pages: scanPages } },
  ] as const;
  for (const run of runs) {
    const f = await measure(run.reader, run.workload);
    const ratio = f.readingP99 / f.idleP99;
    const label = run.name === 'scan' ? `scan ${scanPages} p` : run.name;
    console.log(
      `  ${label.padEnd(10)} idle p50 ${f.idleP50.toFixed(1)} ms, p99 ${f.idleP99.toFixed(1)} ms | while reading p50 ${f.readingP50.toFixed(1)} ms, p99 ${f.readingP99.toFixed(1)} ms, max ${f.readingMax.toFixed(1)} ms (${f.samples} calls; ${(f.readMs / 1000).toFixed(1)} s per document) | p99 ratio ${ratio.toFixed(1)}`,
    );
    out[`reading_${run.name}_p99_ms`] = f.readingP99.toFixed(1);
    out[`reading_${run.name}_p99_ratio`] = ratio.toFixed(1);
  }
  out.reading_scan_pages = String(scanPages);
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await runReadingBench();
  console.log(
    `bench: ${Object.entries(figures)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
}
