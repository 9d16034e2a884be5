/**
 * Search benchmark (part of `npm run bench`; alone: `node bench/search.ts`): a generated Hebrew corpus of
 * at least 10,000 chunks in a fresh in-memory PGlite, seeded through the real path (createDocument +
 * extractAndIndexDocument), then the same queries run by the ranked search (full text + trigram, GIN
 * indexes) and by a sequential ILIKE scan of the chunks' text, alternating, in the same run.
 * Prints p50/p99 of each and the ratio; returns the key=value pairs for the final `bench:` line.
 */
import { pathToFileURL } from 'node:url';
import { and, asc, eq, ilike, or } from 'drizzle-orm';
import { migrateDb } from '../src/db/migrate.ts';
import { openPglite } from '../src/db/pglite.ts';
import { documentChunks, documents } from '../src/db/schema/documents.ts';
import { createDocument, extractAndIndexDocument } from '../src/documents/pipeline.ts';
import { analyzeQuery, normalizeHebrew, tokens } from '../src/search/normalize.ts';
import { searchChunks } from '../src/search/rank.ts';
import { fixtureDocuments, fixturePages, fixtureQuestions } from '../test/fixtures/hebrew/corpus.ts';

const DOCUMENTS = Number(process.env.BENCH_SEARCH_DOCS ?? 250);
const PAGES_PER_DOCUMENT = 40;
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

export async function runSearchBench(): Promise<Record<string, string>> {
  const handle = await openPglite();
  await migrateDb(handle);
  const db = handle.db;
  // Pages read like the real corpus without every page matching every query: filler words drawn from a
  // 20,000-word synthetic vocabulary with a skewed (Zipf-like) frequency, and 1–2 sentences of the fixture
  // documents per page, so a query's words occur in a realistic share of the chunks.
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
  const page = () => {
    const out: string[] = [];
    let length = 0;
    const quoted = 1 + Math.floor(random() * 2);
    for (let i = 0; i < quoted; i++) out.push(sentences[Math.floor(random() * sentences.length)] as string);
    length = out.join(' ').length;
    while (length < 800) {
      const w = filler();
      out.splice(Math.floor(random() * (out.length + 1)), 0, w);
      length += w.length + 1;
    }
    return out.join(' ');
  };
  const seedStarted = performance.now();
  for (let d = 0; d < DOCUMENTS; d++) {
    const text = Array.from({ length: PAGES_PER_DOCUMENT }, page).join('\f');
    const { document } = await createDocument(db, {
      corpus: 'library',
      caseId: null,
      bytes: new TextEncoder().encode(text),
      title: `פסק דין ${d}`,
      createdBy: 'bench',
    });
    await extractAndIndexDocument(db, document.id);
  }
  const chunks = (await db.$count(documentChunks)) as number;
  const seedSeconds = (performance.now() - seedStarted) / 1000;

  const queries = [
    ...fixtureQuestions.map((q) => q.query),
    'היטל השבחה',
    'שמאי מכריע',
    'זיקת הנאה',
    'קו בניין',
    'פטור דירת מגורים',
    'שימוש חורג',
  ];
  const ranked: number[] = [];
  const scan: number[] = [];
  let rankedHits = 0;
  let scanHits = 0;
  const scanQuery = (q: string) => {
    // What a search without indexes does: each query word as a substring of the raw text, any of them.
    const patterns = tokens(normalizeHebrew(q)).map((w) => ilike(documentChunks.text, `%${escapeLike(w)}%`));
    return db
      .select({
        documentId: documentChunks.documentId,
        page: documentChunks.page,
        chunk: documentChunks.chunkIndex,
      })
      .from(documentChunks)
      .innerJoin(documents, eq(documents.id, documentChunks.documentId))
      .where(and(eq(documents.corpus, 'library'), or(...patterns)))
      .orderBy(asc(documentChunks.documentId), asc(documentChunks.chunkIndex))
      .limit(20);
  };
  // One warm-up pass of each, then alternate so both see the same machine load.
  for (const q of queries) {
    await searchChunks(db, { corpus: 'library' }, analyzeQuery(q), { limit: 20, offset: 0 });
    await scanQuery(q);
  }
  for (let r = 0; r < RUNS; r++) {
    for (const q of queries) {
      let t = performance.now();
      rankedHits += (await searchChunks(db, { corpus: 'library' }, analyzeQuery(q), { limit: 20, offset: 0 }))
        .length;
      ranked.push(performance.now() - t);
      if (process.env.BENCH_SEARCH_DEBUG) console.log(`  ${(performance.now() - t).toFixed(1)} ms  ${q}`);
      t = performance.now();
      scanHits += (await scanQuery(q)).length;
      scan.push(performance.now() - t);
    }
  }
  await handle.close();
  const f1 = (n: number) => n.toFixed(1);
  const r50 = quantile(ranked, 0.5);
  const r99 = quantile(ranked, 0.99);
  const s50 = quantile(scan, 0.5);
  const s99 = quantile(scan, 0.99);
  console.log(
    `\nSearch: ${chunks} chunks in ${DOCUMENTS} documents (PGlite in memory; seeded through extraction in ${f1(seedSeconds)} s), ` +
      `${queries.length} queries × ${RUNS} runs, limit 20:`,
  );
  console.log(
    `  ranked (full text + trigram, GIN)  p50 ${f1(r50)} ms  p99 ${f1(r99)} ms  (${rankedHits} hits)`,
  );
  console.log(
    `  sequential ILIKE scan of the text  p50 ${f1(s50)} ms  p99 ${f1(s99)} ms  (${scanHits} hits, unranked)`,
  );
  console.log(`  ratio scan/ranked: p50 ${(s50 / r50).toFixed(2)}×, p99 ${(s99 / r99).toFixed(2)}×`);
  return {
    search_chunks: String(chunks),
    search_p50_ms: f1(r50),
    search_p99_ms: f1(r99),
    ilike_p50_ms: f1(s50),
    ilike_p99_ms: f1(s99),
    search_ratio: (s50 / r50).toFixed(2),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const pairs = await runSearchBench();
  console.log(
    `bench: ${Object.entries(pairs)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
}
