/**
 * Word export time for `npm run bench` (alone: `node bench/drafting.ts`): a generated decision of about 40
 * pages (BENCH_DRAFT_PARAGRAPHS numbered paragraphs of ~90 words, in every kind of block, eight discussions
 * with citations) written as block rows into an in-memory PGlite, then the draft_export job run on it: the
 * blocks read, assembled, written as DOCX by the docx library and stored. A fresh export key each round
 * (BENCH_DRAFT_ROUNDS, median). When LibreOffice is on the machine, the export is rendered once to PDF to
 * report its page count. Prints ms per export; returns the pair for the final `bench:` line.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { eq } from 'drizzle-orm';
import { hasLibreOffice, libreOfficeConvert } from '../scripts/dev/office.ts';
import { migrateDb } from '../src/db/migrate.ts';
import { openPglite } from '../src/db/pglite.ts';
import { cases } from '../src/db/schema/cases.ts';
import { type BlockKind, draftBlocks, draftExports } from '../src/db/schema/drafting.ts';
import { blockContentHash } from '../src/drafting/blocks.ts';
import { DRAFT_EXPORT, draftExportJob } from '../src/drafting/export_job.ts';
import { createLogger } from '../src/log.ts';

const PARAGRAPHS = Number(process.env.BENCH_DRAFT_PARAGRAPHS ?? 180);
const ROUNDS = Number(process.env.BENCH_DRAFT_ROUNDS ?? 5);

const SENTENCE =
  'העוררים טוענים כי שומת היטל ההשבחה שגויה, שכן השמאי המייעץ לא הביא בחשבון את מצב התכנון הקודם ואת ' +
  'זכויות הבנייה שהיו קיימות ערב אישור תכנית הר/2000, כאמור בסעיף 4(1) לתוספת השלישית לחוק התכנון והבנייה, ' +
  'התשכ"ה-1965, ולכן יש להעמיד את ההיטל על סך של 1,250,000 ₪ בלבד. ';

/** The generated decision: kind, key, title, paragraphs. */
function decision(): { kind: BlockKind; key: string; title: string | null; paragraphs: number }[] {
  const share = (n: number) => Math.max(1, Math.round((PARAGRAPHS * n) / 100));
  return [
    { kind: 'header', key: 'header', title: null, paragraphs: 4 },
    { kind: 'background', key: 'background', title: null, paragraphs: share(15) },
    { kind: 'appellant_claims', key: 'appellant_claims', title: null, paragraphs: share(15) },
    { kind: 'respondent_claims', key: 'respondent_claims', title: null, paragraphs: share(10) },
    ...Array.from({ length: 8 }, (_, i) => ({
      kind: 'discussion' as const,
      key: `discussion:q${i + 1}`,
      title: `השאלה ה-${i + 1}`,
      paragraphs: share(7),
    })),
    { kind: 'outcome', key: 'outcome', title: null, paragraphs: 2 },
    { kind: 'costs', key: 'costs', title: null, paragraphs: 1 },
    { kind: 'signature', key: 'signature', title: null, paragraphs: 2 },
  ];
}

export async function runDraftingBench(): Promise<Record<string, string>> {
  const handle = await openPglite();
  try {
    await migrateDb(handle);
    const db = handle.db;
    const caseId = crypto.randomUUID();
    await db
      .insert(cases)
      .values({ id: caseId, caseNumber: 'ערר 4040/25', title: 'bench', createdBy: 'bench' });
    const blocks = decision();
    let words = 0;
    for (const b of blocks) {
      const text = Array.from({ length: b.paragraphs }, (_, i) => `${SENTENCE.repeat(2)}(${i + 1})`).join(
        '\n',
      );
      words += text.split(/\s+/).length;
      const citations =
        b.kind === 'discussion'
          ? [{ text: `עע"מ ${1000 + b.paragraphs}/05 פלוני נ׳ ${b.key}`, number: `עע"מ ${b.key}` }]
          : [];
      await db.insert(draftBlocks).values({
        id: crypto.randomUUID(),
        caseId,
        key: b.key,
        kind: b.kind,
        version: 1,
        title: b.title,
        text,
        claimIds: [],
        argumentIds: [],
        citations,
        contentHash: blockContentHash({
          kind: b.kind,
          title: b.title,
          text,
          claimIds: [],
          argumentIds: [],
          citations,
        }),
        source: 'write',
        author: 'bench',
      });
    }
    const log = createLogger('silent');
    const run = async (round: number) => {
      const payload = {
        case_id: caseId,
        blocks_hash: `bench-${round}`,
        blocks: blocks.map((b) => ({ key: b.key, version: 1 })),
        agent: 'bench',
      };
      const started = performance.now();
      await draftExportJob(
        { id: crypto.randomUUID(), kind: DRAFT_EXPORT, attempt: 1, maxAttempts: 1, payload, subject: caseId },
        { db, log, now: () => new Date(), signal: new AbortController().signal },
      );
      return performance.now() - started;
    };
    await run(-1); // warm-up: plans, the library's first use, JIT
    const times: number[] = [];
    for (let r = 0; r < ROUNDS; r++) times.push(await run(r));
    const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] as number;
    const [one] = await db.select().from(draftExports).where(eq(draftExports.caseId, caseId)).limit(1);
    let pages = 'n/a (no LibreOffice)';
    if (one !== undefined && hasLibreOffice()) {
      const dir = await mkdtemp(join(tmpdir(), 'chambers-bench-'));
      try {
        const file = join(dir, 'decision.docx');
        await writeFile(file, one.content);
        const pdf = await readFile(await libreOfficeConvert(file, 'pdf', dir), 'latin1');
        pages = String((pdf.match(/\/Type\s*\/Page[^s]/g) ?? []).length);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
    console.log(
      `\nDrafting: draft_export's job on a generated decision (${blocks.length} blocks, ${PARAGRAPHS}+ paragraphs, ` +
        `${words} words, ${pages} pages as LibreOffice lays it out; DOCX ${one?.byteSize ?? 0} bytes), PGlite in memory, ` +
        `median of ${ROUNDS}: ${median.toFixed(0)} ms`,
    );
    return { draft_export_ms: median.toFixed(0), draft_export_pages: pages.split(' ')[0] ?? '' };
  } finally {
    await handle.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const pairs = await runDraftingBench();
  console.log(
    `drafting: ${Object.entries(pairs)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
}
