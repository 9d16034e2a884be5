/**
 * Analysis throughput for `npm run bench` (alone: `node bench/analysis.ts`): the case file fixture scaled to
 * 500 pages for each of the three extractors: a case document of a role the extractor reads, whose pages are
 * the fixture's pages of such documents repeated to 500 (references: every document's; claims: the appeal,
 * the response and the decision; facts: the three appraisals). Each is seeded into an in-memory PGlite through
 * the real path (createDocument + extractAndIndexDocument), then the extractor's job runs on it: the rules
 * and the writes, in one transaction. A fresh document each round (BENCH_ANALYSIS_ROUNDS, median); prints
 * pages per second per extractor and for all three in turn; returns the pair for the final `bench:` line.
 */
import { pathToFileURL } from 'node:url';
import { claimExtractor, factExtractor, referenceExtractor } from '../src/analysis/extractors.ts';
import { migrateDb } from '../src/db/migrate.ts';
import { openPglite } from '../src/db/pglite.ts';
import { cases } from '../src/db/schema/cases.ts';
import type { DocumentRole } from '../src/db/schema/documents.ts';
import type { Db } from '../src/db/types.ts';
import { createDocument, extractAndIndexDocument } from '../src/documents/pipeline.ts';
import { type Extractor, extractorJob } from '../src/extractors/framework.ts';
import { type CaseFileName, caseFileNames, caseFilePages } from '../test/fixtures/case_file/case_file.ts';

const PAGES = Number(process.env.BENCH_ANALYSIS_PAGES ?? 500);
const ROUNDS = Number(process.env.BENCH_ANALYSIS_ROUNDS ?? 3);

interface Subject {
  label: string;
  extractor: Extractor;
  role: DocumentRole;
  from: readonly CaseFileName[];
}

const SUBJECTS: readonly Subject[] = [
  { label: 'references', extractor: referenceExtractor, role: 'appeal', from: caseFileNames },
  {
    label: 'claims',
    extractor: claimExtractor,
    role: 'appeal',
    from: ['appeal', 'response', 'interim_decision'],
  },
  {
    label: 'facts',
    extractor: factExtractor,
    role: 'appraisal',
    from: ['appraisal_appellants', 'appraisal_committee', 'deciding_appraisal'],
  },
];

const log = { info() {}, warn() {}, error() {} };

/** Seeds one scaled document and times its extractor's job; returns milliseconds. */
async function once(
  db: Db,
  caseId: string,
  subject: Subject,
  pages: string[],
  round: number,
): Promise<number> {
  // A marker on the last page makes each round a new document (the natural key is the bytes' SHA-256).
  const text = [...pages.slice(0, -1), `${pages.at(-1)}\nסבב ${subject.label} ${round}`].join('\f');
  const { document } = await createDocument(db, {
    corpus: 'case',
    caseId,
    bytes: new TextEncoder().encode(text),
    title: `${subject.label} ${round}`,
    role: subject.role,
    createdBy: 'bench',
  });
  await extractAndIndexDocument(db, document.id);
  const started = performance.now();
  await extractorJob(subject.extractor)(
    {
      id: crypto.randomUUID(),
      kind: subject.extractor.kind,
      attempt: 1,
      maxAttempts: 5,
      payload: { document_id: document.id },
      subject: null,
    },
    { db, log, now: () => new Date(), signal: new AbortController().signal },
  );
  return performance.now() - started;
}

export async function runAnalysisBench(): Promise<Record<string, string>> {
  const handle = await openPglite();
  try {
    await migrateDb(handle);
    const db = handle.db;
    const caseId = crypto.randomUUID();
    await db
      .insert(cases)
      .values({ id: caseId, caseNumber: 'ערר 2041/25', title: 'bench', createdBy: 'bench' });
    const perSecond: Record<string, number> = {};
    let totalMs = 0;
    for (const subject of SUBJECTS) {
      const source = (await Promise.all(subject.from.map((n) => caseFilePages(n)))).flat();
      const pages = Array.from({ length: PAGES }, (_, i) => source[i % source.length] as string);
      await once(db, caseId, subject, pages, -1); // warm-up at full size: plans, regexes, JIT
      const times: number[] = [];
      for (let r = 0; r < ROUNDS; r++) times.push(await once(db, caseId, subject, pages, r));
      const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] as number;
      perSecond[subject.label] = (PAGES * 1000) / median;
      totalMs += median;
    }
    const all = (PAGES * 1000) / totalMs;
    console.log(
      `\nAnalysis: ${PAGES}-page case documents from the case file fixture, each extractor's job (rules and ` +
        `writes, PGlite in memory), median of ${ROUNDS}:`,
    );
    console.log(
      `  ${SUBJECTS.map((s) => `${s.label} ${(perSecond[s.label] ?? 0).toFixed(0)} pages/s`).join(', ')}; ` +
        `all three in turn ${all.toFixed(0)} pages/s`,
    );
    return { analysis_pages_per_s: all.toFixed(0) };
  } finally {
    await handle.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const pairs = await runAnalysisBench();
  console.log(
    `analysis: ${Object.entries(pairs)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
}
