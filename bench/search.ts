/**
 * Search benchmark (part of `npm run bench`; alone: `node bench/search.ts`): a generated Hebrew corpus at
 * 10,000 and then 100,000 chunks (BENCH_SEARCH_SCALES), on PGlite in memory and on the local PostgreSQL
 * when reachable (a scratch database, created and dropped). The first documents go through the real path
 * (createDocument + extractAndIndexDocument); the rest are written as the pipeline writes them (chunkPages,
 * the same rows and vocabulary) in bulk, timed as "time to index". At each scale the same queries run by
 * the ranked search, by the baseline query path beside it (the ranked query before its staged ranking, kept in
 * bench/search_baseline.ts: same words and tuning) and by a sequential ILIKE scan, alternating in the same run; prints
 * p50/p99 of each, the after/before ratio, the ILIKE ratio, the index sizes, and EXPLAIN ANALYZE of the slowest ranked query on PostgreSQL at the largest
 * scale (BENCH_SEARCH_STACKS=pglite,pg picks the stacks). Returns the key=value pairs for the `bench:` line.
 */
import { pathToFileURL } from 'node:url';
import { and, asc, eq, ilike, or, sql } from 'drizzle-orm';
import { indexReadSettings } from '../src/db/index_reads.ts';
import { migrateDb } from '../src/db/migrate.ts';
import { openPglite } from '../src/db/pglite.ts';
import { documentChunks, documents, searchTerms } from '../src/db/schema/documents.ts';
import { type Db, type DbHandle, rowsOf } from '../src/db/types.ts';
import { createDocument, extractAndIndexDocument } from '../src/documents/pipeline.ts';
import { normalizeHebrew, tokens } from '../src/hebrew/text.ts';
import { chunkPages } from '../src/search/chunk.ts';
import { analyzeQuery } from '../src/search/normalize.ts';
import { MAX_RANKED_QUERY_WORDS, rankedSql, searchChunks } from '../src/search/rank.ts';
import { fixtureDocuments, fixturePages, fixtureQuestions } from '../test/fixtures/hebrew/corpus.ts';
import { serviceUrls } from '../test/harness/services.ts';
import { scratchPostgres } from './scratch.ts';
import { baselineSearch } from './search_baseline.ts';

const SCALES = (process.env.BENCH_SEARCH_SCALES ?? '10000,100000').split(',').map(Number);
const PAGES_PER_DOCUMENT = 40;
/** Documents seeded through extraction itself, before the bulk rows. */
const EXTRACTED_DOCUMENTS = 5;
/** Chunks generated page by page; beyond, the corpus grows by copies of its documents. */
const GENERATED = Number(process.env.BENCH_SEARCH_GENERATED ?? 2_500);
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 5);

/** A deterministic pseudo-random generator (the corpus is the same every run). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
};
const f1 = (n: number) => n.toFixed(1);

/**
 * Pages that read like the real corpus without every page matching every query: filler words drawn from a
 * 20,000-word synthetic vocabulary with a skewed (Zipf-like) frequency, and 1–2 sentences of the fixture
 * documents per page, so a query's words occur in a realistic share of the chunks.
 */
export async function pageMaker() {
  const random = rng(42);
  const letters = 'אבגדהוזחטיכלמנסעפצקרשת';
  const vocabulary = Array.from({ length: 20_000 }, () =>
    Array.from(
      { length: 3 + Math.floor(random() * 5) },
      () => letters[Math.floor(random() * letters.length)],
    ).join(''),
  );
  const sentences: string[] = [];
  for (const f of fixtureDocuments) {
    for (const p of await fixturePages(f.name))
      sentences.push(...p.split(/(?<=\.)\s+/).filter((x) => x.length > 20));
  }
  const filler = () => vocabulary[Math.floor(vocabulary.length * random() ** 3)] as string;
  return () => {
    const out: string[] = [];
    const quoted = 1 + Math.floor(random() * 2);
    for (let i = 0; i < quoted; i++) out.push(sentences[Math.floor(random() * sentences.length)] as string);
    let length = out.join(' ').length;
    while (length < 800) {
      const w = filler();
      out.splice(Math.floor(random() * (out.length + 1)), 0, w);
      length += w.length + 1;
    }
    return out.join(' ');
  };
}

/**
 * Grows the library corpus to at least `target` chunks: generated pages, as extraction writes them, up to
 * GENERATED chunks; past that the generated documents are copied under new ids (by the database itself), so
 * 100,000 chunks take seconds, not the minutes Node's chunking would, and each word keeps its share of chunks.
 */
export async function growTo(db: Db, target: number, page: () => string, state: { docs: number }) {
  let chunks = (await db.$count(documentChunks)) as number;
  while (state.docs < EXTRACTED_DOCUMENTS) {
    const text = Array.from({ length: PAGES_PER_DOCUMENT }, page).join('\f');
    const { document } = await createDocument(db, {
      corpus: 'library',
      caseId: null,
      bytes: new TextEncoder().encode(text),
      title: `פסק דין ${state.docs++}`,
      createdBy: 'bench',
    });
    await extractAndIndexDocument(db, document.id);
    chunks = (await db.$count(documentChunks)) as number;
  }
  while (chunks < Math.min(target, GENERATED)) {
    const id = crypto.randomUUID();
    const rows = chunkPages(Array.from({ length: PAGES_PER_DOCUMENT }, page));
    await db.transaction(async (tx) => {
      await tx.insert(documents).values({
        id,
        corpus: 'library',
        sha256: id,
        mediaType: 'text/plain',
        byteSize: 0,
        title: `פסק דין ${state.docs++}`,
        status: 'ready',
        pageCount: PAGES_PER_DOCUMENT,
        createdBy: 'bench',
      });
      for (let i = 0; i < rows.length; i += 100)
        await tx.insert(documentChunks).values(rows.slice(i, i + 100).map((c) => ({ documentId: id, ...c })));
      const terms = [
        ...new Set(rows.flatMap((c) => tokens(c.normText)).filter((t) => t.length >= 3 && !/^\d/.test(t))),
      ].sort();
      for (let i = 0; i < terms.length; i += 500)
        await tx
          .insert(searchTerms)
          .values(terms.slice(i, i + 500).map((term) => ({ term })))
          .onConflictDoNothing();
    });
    chunks += rows.length;
  }
  while (chunks < target) {
    const perDocument = PAGES_PER_DOCUMENT * 1.3;
    // At most 100 documents (~5,000 chunks) a transaction: the GIN index's small pending list is flushed as it
    // fills, so one statement copying tens of thousands of chunks would outlast the client's query bound.
    const copies = Math.min(100, Math.max(1, Math.ceil((target - chunks) / perDocument)));
    await db.transaction(async (tx) => {
      // Thousands of chunks in one statement (their tsvectors and the GIN index): past the pool's statement
      // bound, which is for the agents' calls, not for seeding a bench.
      await tx.execute(sql`set local statement_timeout = 0`);
      await tx.execute(sql`create temp table copied on commit drop as
        select id as old, gen_random_uuid() as new from documents where corpus = 'library' order by id limit ${copies}`);
      await tx.execute(sql`insert into documents (id, corpus, sha256, media_type, byte_size, title, status, page_count, created_by)
        select m.new, 'library', m.new::text, 'text/plain', 0, d.title || ' (copy)', 'ready', d.page_count, 'bench'
        from copied m join documents d on d.id = m.old`);
      await tx.execute(sql`insert into document_chunks (document_id, page, chunk_index, text, norm_text, terms)
        select m.new, c.page, c.chunk_index, c.text, c.norm_text, c.terms from copied m join document_chunks c on c.document_id = m.old`);
    });
    chunks = (await db.$count(documentChunks)) as number;
  }
  await db.execute(sql`analyze`);
  return chunks;
}

const queries = [
  ...fixtureQuestions.map((q) => q.query),
  'היטל השבחה',
  'שמאי מכריע',
  'זיקת הנאה',
  'קו בניין',
  'פטור דירת מגורים',
  'שימוש חורג',
];

/** What a search without indexes does: each query word as a substring of the raw text, any of them. */
const scanQuery = (db: Db, q: string) => {
  const patterns = tokens(normalizeHebrew(q)).map((w) => ilike(documentChunks.text, `%${escapeLike(w)}%`));
  return db
    .select({ documentId: documentChunks.documentId, chunk: documentChunks.chunkIndex })
    .from(documentChunks)
    .innerJoin(documents, eq(documents.id, documentChunks.documentId))
    .where(and(eq(documents.corpus, 'library'), or(...patterns)))
    .orderBy(asc(documentChunks.documentId), asc(documentChunks.chunkIndex))
    .limit(20);
};

const ranked = (db: Db, q: string) =>
  searchChunks(db, { corpus: 'library' }, analyzeQuery(q), { limit: 20, offset: 0 });

/** The query path before the staged ranking (bench/search_baseline.ts), measured beside it in the same run. */
const baseline = (db: Db, q: string) =>
  baselineSearch(db, { corpus: 'library' }, analyzeQuery(q), { limit: 20, offset: 0 });

async function measure(db: Db, label: string, chunks: number, indexSeconds: number) {
  for (const q of queries) {
    await ranked(db, q);
    await baseline(db, q);
  }
  const times: number[] = [];
  const before: number[] = [];
  const byQuery = new Map<string, number>();
  const scan: number[] = [];
  // The scan is slow at scale: one run of each query beside the ranked runs is enough for its median.
  const scanRuns = chunks > 20_000 ? 1 : RUNS;
  for (let r = 0; r < RUNS; r++) {
    for (const q of queries) {
      const t = performance.now();
      await ranked(db, q);
      const ms = performance.now() - t;
      times.push(ms);
      byQuery.set(q, Math.max(byQuery.get(q) ?? 0, ms));
      // The baseline right after, so both see the same load on the machine.
      const b = performance.now();
      await baseline(db, q);
      before.push(performance.now() - b);
      if (r < scanRuns) {
        const s = performance.now();
        await scanQuery(db, q);
        scan.push(performance.now() - s);
      }
    }
  }
  const sizes = rowsOf<{ fts: string; trgm: string; chunks: string }>(
    await db.execute(sql`select pg_relation_size('document_chunks_fts_idx')::text as fts,
      pg_relation_size('search_terms_trgm_idx')::text as trgm,
      pg_total_relation_size('document_chunks')::text as chunks`),
  )[0];
  const mb = (b: string | undefined) => f1(Number(b ?? 0) / 2 ** 20);
  const [p50, p99, s50] = [quantile(times, 0.5), quantile(times, 0.99), quantile(scan, 0.5)];
  const [b50, b99] = [quantile(before, 0.5), quantile(before, 0.99)];
  const slowest = [...byQuery].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
  console.log(
    `  ${label.padEnd(9)} ${String(chunks).padStart(7)} chunks: ranked p50 ${f1(p50).padStart(6)} ms  p99 ${f1(p99).padStart(6)} ms | ` +
      `ILIKE p50 ${f1(s50).padStart(7)} ms (${f1(s50 / p50)}×) | full-text index ${mb(sizes?.fts)} MB, vocabulary ` +
      `${mb(sizes?.trgm)} MB, chunks table ${mb(sizes?.chunks)} MB | indexed in ${f1(indexSeconds)} s (${f1(chunks / indexSeconds)} chunks/s)`,
  );
  console.log(
    `  ${''.padEnd(9)} ${''.padStart(7)}         before: baseline p50 ${f1(b50).padStart(6)} ms  p99 ${f1(b99).padStart(6)} ms | ` +
      `after/before p50 ${(p50 / b50).toFixed(2)}, p99 ${(p99 / b99).toFixed(2)} (same run, alternating)`,
  );
  return { p50, p99, s50, b50, b99, slowest, fts: mb(sizes?.fts), indexSeconds };
}

export async function runSearchBench(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  console.log(
    `\nSearch: ${queries.length} queries × ${RUNS} runs, limit 20, library corpus; ILIKE = sequential scan of the text, any query word:`,
  );
  const stacks: {
    key: 'pglite' | 'pg';
    open(): Promise<{ handle: DbHandle; done(): Promise<void> } | null>;
  }[] = [
    {
      key: 'pglite',
      open: async () => {
        const handle = await openPglite();
        await migrateDb(handle);
        return { handle, done: () => handle.close() };
      },
    },
    {
      key: 'pg',
      open: async () => {
        const s = await scratchPostgres();
        return s === null ? null : { handle: s.handle, done: s.drop };
      },
    },
  ];
  const only = (process.env.BENCH_SEARCH_STACKS ?? 'pglite,pg').split(',');
  for (const stack of stacks.filter((s) => only.includes(s.key))) {
    const opened = await stack.open();
    if (opened === null) {
      console.log(`  ${stack.key}: no PostgreSQL at ${serviceUrls.postgres}; skipped`);
      continue;
    }
    const db = opened.handle.db;
    const page = await pageMaker();
    const state = { docs: 0 };
    let indexSeconds = 0;
    let last: Awaited<ReturnType<typeof measure>> | undefined;
    for (const scale of SCALES) {
      const t = performance.now();
      const chunks = await growTo(db, scale, page, state);
      indexSeconds += (performance.now() - t) / 1000;
      last = await measure(db, stack.key, chunks, indexSeconds);
      const k = `search_${stack.key}_${scale >= 1000 ? `${scale / 1000}k` : scale}`;
      out[`${k}_p50_ms`] = f1(last.p50);
      out[`${k}_p99_ms`] = f1(last.p99);
      out[`${k}_ratio`] = (last.s50 / last.p50).toFixed(1);
      out[`${k}_base_p50_ms`] = f1(last.b50);
      out[`${k}_base_p99_ms`] = f1(last.b99);
      out[`${k}_vs_base_p50`] = (last.p50 / last.b50).toFixed(2);
      out[`${k}_fts_mb`] = last.fts;
      out[`${k}_index_s`] = f1(last.indexSeconds);
      if (stack.key === 'pglite' && scale === SCALES[0]) {
        // The figures this line carried before the scales (PGlite, the first scale).
        out.search_chunks = String(chunks);
        out.search_p50_ms = f1(last.p50);
        out.search_p99_ms = f1(last.p99);
        out.ilike_p50_ms = f1(last.s50);
        out.search_ratio = (last.s50 / last.p50).toFixed(2);
      }
    }
    if (stack.key === 'pg' && last !== undefined) {
      const q = analyzeQuery(last.slowest);
      const { ranked: query } = rankedSql(
        { corpus: 'library' },
        { text: q.text, words: q.words.slice(0, MAX_RANKED_QUERY_WORDS) },
        { limit: 20, offset: 0 },
      );
      // As searchChunks runs it: in a transaction with its settings (index scans forced, no parallel workers).
      const plan = await db.transaction(async (tx) => {
        await tx.execute(indexReadSettings);
        return rowsOf<{ 'QUERY PLAN': string }>(
          await tx.execute(sql`explain (analyze, buffers, costs off) ${query}`),
        );
      });
      console.log(`\n  EXPLAIN ANALYZE of the slowest ranked query on PostgreSQL ("${last.slowest}"):`);
      for (const r of plan) console.log(`    ${r['QUERY PLAN']}`);
    }
    await opened.done();
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const pairs = await runSearchBench();
  console.log(
    `bench: ${Object.entries(pairs)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
}
