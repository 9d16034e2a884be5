/**
 * Citation benchmark for `npm run bench` (alone: `node bench/citations.ts`): 2,000 generated committee
 * decisions (BENCH_CITATION_DOCS) in a fresh in-memory PGlite, each citing one ruling everyone cites, three
 * earlier decisions and one ruling that is not in the library, in the forms and with the cues the fixture
 * uses. The documents, their pages and their numbers (metadata) are written directly; what is timed is the
 * citation extractor's job on each decision in turn: the rules, the resolution to the document with that
 * number, the writes and the missing precedents. Then citation_incoming_list (its run, first page of 20) for
 * the most-cited ruling, BENCH_CITATION_RUNS times. Prints citations per second and the p50; returns the
 * pairs for the final `bench:` line.
 */
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { citation_incoming_list } from '../functions/citation/citation_incoming_list.ts';
import type { ToolContext } from '../src/contract/define.ts';
import { openPage } from '../src/contract/limits.ts';
import { migrateDb } from '../src/db/migrate.ts';
import { openPglite } from '../src/db/pglite.ts';
import { documentPages, documents } from '../src/db/schema/documents.ts';
import { decisionMetadata } from '../src/db/schema/precedents.ts';
import type { Db } from '../src/db/types.ts';
import { extractorJob } from '../src/extractors/framework.ts';
import { CITATIONS_VERSION, citationExtractor } from '../src/precedents/extractors.ts';

const DOCS = Number(process.env.BENCH_CITATION_DOCS ?? 2000);
const RUNS = Number(process.env.BENCH_CITATION_RUNS ?? 50);
const BATCH = 200;
const MOST_CITED = 'עע"מ 9001/19';

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
};

const numberOf = (i: number) => `ערר ${10000 + i}/24`;
const QUOTES = ['"', '״', '׳׳'];

/** Decision i's text: its heading, then paragraphs citing the most-cited ruling, earlier decisions, an absent one. */
function decisionText(i: number, next: () => number): { text: string; citations: number } {
  const earlier = i === 0 ? [] : Array.from({ length: Math.min(3, i) }, () => Math.floor(next() * i));
  const absent = `בג${QUOTES[i % 3]}ץ ${1000 + Math.floor(next() * 200)}/18`;
  const most = MOST_CITED.replace('"', QUOTES[i % 3] as string);
  const lines = [
    'ועדת הערר לתכנון ובנייה מחוז מרכז',
    `ערר מס' ${10000 + i}/24`,
    'החלטה',
    `1. כפי שנקבע ב${most}, המבחן הוא מבחן הקונה הסביר.`,
    ...earlier.map(
      (j, k) =>
        `${k + 2}. ${['ראו ', 'להבדיל מ', 'איני שותף לגישה שב'][k % 3]}${numberOf(j)}, ועניין זה נדון בהרחבה.`,
    ),
    `${earlier.length + 2}. העוררים הפנו ל${absent}, שאינו בספרייה.`,
    `${earlier.length + 3}. סוף דבר: הערר נדחה.`,
  ];
  return { text: lines.join('\n'), citations: earlier.length + 2 };
}

async function seed(db: Db): Promise<{ mostCited: string; ids: string[]; citations: number }> {
  const next = rng(42);
  const mostCited = crypto.randomUUID();
  const docs: (typeof documents.$inferInsert)[] = [];
  const pages: (typeof documentPages.$inferInsert)[] = [];
  const metas: (typeof decisionMetadata.$inferInsert)[] = [];
  const doc = (id: string, corpus: 'library' | 'internal', title: string) => ({
    id,
    corpus,
    caseId: null,
    sha256: id,
    mediaType: 'text/plain' as const,
    byteSize: 1,
    title,
    createdBy: 'bench',
    status: 'ready' as const,
    pageCount: 1,
  });
  const meta = (documentId: string, key: string) => ({
    documentId,
    number: key,
    numberKey: key,
    proceeding: key.split(' ')[0] ?? null,
    sources: {},
    provenance: {},
    extractorVersion: 'bench',
  });
  docs.push(doc(mostCited, 'library', MOST_CITED));
  pages.push({ documentId: mostCited, page: 1, text: 'פסק דין' });
  metas.push(meta(mostCited, MOST_CITED));
  const ids: string[] = [];
  let citations = 0;
  for (let i = 0; i < DOCS; i++) {
    const id = crypto.randomUUID();
    ids.push(id);
    const { text, citations: n } = decisionText(i, next);
    citations += n;
    docs.push(doc(id, 'internal', numberOf(i)));
    pages.push({ documentId: id, page: 1, text });
    metas.push(meta(id, numberOf(i)));
  }
  for (let i = 0; i < docs.length; i += BATCH) {
    await db.insert(documents).values(docs.slice(i, i + BATCH));
    await db.insert(documentPages).values(pages.slice(i, i + BATCH));
    await db.insert(decisionMetadata).values(metas.slice(i, i + BATCH));
  }
  return { mostCited, ids, citations };
}

const log = { info() {}, warn() {}, error() {} };

export async function runCitationBench(): Promise<Record<string, string>> {
  const handle = await openPglite();
  try {
    await migrateDb(handle);
    const db = handle.db;
    const { mostCited, ids, citations } = await seed(db);
    const job = extractorJob(citationExtractor);
    const run = (id: string) =>
      job(
        {
          id: crypto.randomUUID(),
          kind: citationExtractor.kind,
          attempt: 1,
          maxAttempts: 5,
          payload: { document_id: id, version: CITATIONS_VERSION },
          subject: null,
        },
        { db, log, now: () => new Date(), signal: new AbortController().signal },
      );
    const started = performance.now();
    for (const id of ids) await run(id);
    const seconds = (performance.now() - started) / 1000;
    const [stored] = (
      (await db.execute(sql`
        select count(*)::int as n, (count(*) filter (where cited_document_id is not null))::int as resolved,
          (select count(*)::int from missing_precedents where status = 'open') as open
        from citations`)) as unknown as { rows: { n: number; resolved: number; open: number }[] }
    ).rows;
    if (stored?.n !== citations) throw new Error(`stored ${stored?.n} citations, generated ${citations}`);

    // Statistics as autovacuum would keep them on a server (PGlite has none): the planner then pages through
    // the (cited document, created_at, id) index instead of sorting every citation of the ruling.
    await db.execute(sql`analyze`);
    // citation_incoming_list's run for the ruling every decision cites (first page of 20).
    const ctx = {
      db,
      agent: 'bench',
      requestId: 'bench',
      now: () => new Date(),
      env: {},
      log,
      holds: () => true,
      progress: async () => {},
      waitUntil: () => {},
    } as unknown as ToolContext;
    const args = { document_id: mostCited };
    const times: number[] = [];
    for (let r = 0; r < RUNS + 3; r++) {
      const spec = citation_incoming_list.pages;
      if (spec === undefined) throw new Error('citation_incoming_list pages its results');
      const { page } = openPage('citation_incoming_list', spec, { ...args });
      const t = performance.now();
      const out = await citation_incoming_list.run({ ctx, input: args, gate: null, page });
      if (r >= 3) times.push(performance.now() - t);
      if (!('items' in out) || out.items.length !== 20)
        throw new Error('citation_incoming_list returned no page');
    }
    const perSecond = citations / seconds;
    const p50 = quantile(times, 0.5);
    console.log(
      `\nCitations: ${DOCS} generated decisions, ${citations} citations (${stored.resolved} resolved, ` +
        `${stored.open} missing precedents opened), the extractor's job on each in turn (PGlite in memory): ` +
        `${perSecond.toFixed(0)} citations/s; citation_incoming_list of the most-cited ruling (${DOCS} ` +
        `citing): p50 ${p50.toFixed(2)} ms, p99 ${quantile(times, 0.99).toFixed(2)} ms over ${RUNS} runs`,
    );
    return { citations_per_s: perSecond.toFixed(0), citation_incoming_p50_ms: p50.toFixed(2) };
  } finally {
    await handle.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const pairs = await runCitationBench();
  console.log(
    `citations: ${Object.entries(pairs)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
}
