// halacha_extract through the official MCP client: candidate holdings of a ruling with their offsets in the page
// text, never a party's claim; one job per document, wait_ms; a re-run that keeps the rows; the automatic run
// after upload; the refusals; 20 identical calls at once; a caller without the grant.
import { and, asc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { halacha_extract } from '../../../functions/halacha/halacha_extract.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { holdings } from '../../../src/db/schema/holdings.ts';
import { jobs } from '../../../src/db/schema/jobs.ts';
import { createDocument } from '../../../src/documents/pipeline.ts';
import { documentPageTexts } from '../../../src/extractors/framework.ts';
import { holdingExtractor } from '../../../src/halacha/extractor.ts';
import { libraryAnswers, libraryNames } from '../../fixtures/library/library.ts';
import { ALL_STACKS, DB_STACKS, deniedTo, forEachStack, twentyAtOnce } from '../../harness/analysis.ts';
import { seedCase, seedDocument, textBytes } from '../../harness/documents.ts';
import { seedLibrary } from '../../harness/holdings_fixtures.ts';
import { rerun } from '../../harness/rerun.ts';
import { score, ws } from '../../harness/scores.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { extractHoldings, RULING, RULING_HOLDINGS, seedRuling } from './_halacha.ts';

/** Seeding and extraction through the queue: generous on a loaded machine. */
const SLOW = 120_000;

type Data = ToolData<typeof halacha_extract>;

forEachStack('halacha_extract', DB_STACKS, (server) => {
  const extract = (args: Record<string, unknown>) => server().call('researcher', 'halacha_extract', args);
  const rowsOf = (documentId: string) =>
    server()
      .db.db.select()
      .from(holdings)
      .where(eq(holdings.documentId, documentId))
      .orderBy(asc(holdings.page), asc(holdings.start));

  it(
    'finds the holdings in the court’s voice, none of the parties’ claims, each at its offsets',
    async () => {
      const db = server().db.db;
      const id = await seedRuling(db);
      const env = await extract({ document_id: id, wait_ms: 10_000 });
      const data = expectOk<Data>(env);
      expect(data).toMatchObject({ done: true, summary: { candidates: 3, pending: 3 }, skipped: [] });
      expect(data.jobs).toHaveLength(1);
      expect(data.next).toContain('halacha_list');
      expect(env.message).toMatch(/3 candidate/);
      const rows = await rowsOf(id);
      const pages = await documentPageTexts(db, id);
      expect(rows.map((r) => ({ page: r.page, cue: r.cue }))).toEqual(
        RULING_HOLDINGS.map((h) => ({ page: h.page, cue: h.cue })),
      );
      rows.forEach((r, i) => {
        expect(pages[r.page - 1]?.slice(r.start, r.end)).toBe(r.text);
        expect(r.text.startsWith(RULING_HOLDINGS[i]?.opens ?? '?')).toBe(true);
        expect(r).toMatchObject({ status: 'pending', extractorVersion: 'holdings@2' });
      });
      // The parties' claims carry the same cues and are never candidates.
      for (const r of rows) expect(r.text).not.toMatch(/לטענת|טוענת|טוענים/);
    },
    SLOW,
  );

  it(
    'reads internal decisions too; asking again queues nothing new and a re-run keeps the same rows',
    async () => {
      const id = await seedRuling(server().db.db, 'internal');
      const queued = expectOk<Data>(await extract({ document_id: id }));
      expect(queued).toMatchObject({ done: false, summary: null });
      expect(queued.next).toMatch(/background/);
      const done = expectOk<Data>(await extract({ document_id: id, wait_ms: 10_000 }));
      expect(done.jobs[0]?.job_id).toBe(queued.jobs[0]?.job_id);
      const before = await rowsOf(id);
      await rerun(server().db.db, holdingExtractor, id);
      expect(await rowsOf(id)).toEqual(before);
      const queuedJobs = await server()
        .db.db.select()
        .from(jobs)
        .where(and(eq(jobs.kind, 'halacha_extract'), eq(jobs.subject, `document:${id}`)));
      expect(queuedJobs).toHaveLength(1);
    },
    SLOW,
  );

  it(
    'runs by itself after a ruling is uploaded and its text extracted',
    async () => {
      const s = server();
      const up = expectOk<{ document: { id: string } }>(
        await s.call('researcher', 'library_add', {
          text: RULING.replace('{tag}', crypto.randomUUID()),
          number: 'עע"מ 9001/19',
        }),
      );
      for (let i = 0; i < 5; i++) {
        const r = expectOk<{ claimed: number }>(await s.call('ceo', 'extraction_run', { max_jobs: 50 }));
        if (r.claimed === 0) break;
      }
      expect(await rowsOf(up.document.id)).toHaveLength(RULING_HOLDINGS.length);
    },
    SLOW,
  );

  it(
    'refuses what it cannot read: invalid_state before the text exists, invalid_args, not_found',
    async () => {
      const db = server().db.db;
      const { document } = await createDocument(db, {
        corpus: 'library',
        caseId: null,
        bytes: textBytes(`פסק דין ${crypto.randomUUID()}`),
        title: 'ממתין',
        createdBy: 'test',
      });
      const pending = await extract({ document_id: document.id });
      expect(errorCode(pending)).toBe('invalid_state');
      expect(pending.ok ? '' : pending.error.hint).toMatch(/extraction_status/);
      const caseDoc = await seedDocument(db, {
        corpus: 'case',
        caseId: await seedCase(db),
        bytes: textBytes(`כתב ערר ${crypto.randomUUID()}`),
      });
      const style = await seedDocument(db, {
        corpus: 'style',
        caseId: null,
        bytes: textBytes(`דוגמה ${crypto.randomUUID()}`),
      });
      expect(errorCode(await extract({ document_id: caseDoc.id }))).toBe('invalid_args');
      expect(errorCode(await extract({ document_id: style.id }))).toBe('invalid_args');
      expect(errorCode(await extract({}))).toBe('invalid_args');
      expect(errorCode(await extract({ document_id: document.id, wait_ms: 10_001 }))).toBe('invalid_args');
      expect(errorCode(await extract({ document_id: crypto.randomUUID() }))).toBe('not_found');
    },
    SLOW,
  );
});

forEachStack('halacha_extract under concurrency', ALL_STACKS, (server) => {
  it(
    '20 identical calls at once: one job, one set of rows',
    async () => {
      const id = await seedRuling(server().db.db);
      const answers = await twentyAtOnce(server(), 'halacha_extract', { document_id: id, wait_ms: 10_000 }, [
        'researcher',
      ]);
      for (const a of answers) expectOk(a);
      const queued = await server()
        .db.db.select()
        .from(jobs)
        .where(and(eq(jobs.kind, 'halacha_extract'), eq(jobs.subject, `document:${id}`)));
      expect(queued).toHaveLength(1);
      const rows = await server().db.db.select().from(holdings).where(eq(holdings.documentId, id));
      expect(rows).toHaveLength(RULING_HOLDINGS.length);
    },
    SLOW,
  );
});

deniedTo('halacha_extract', 'writer', () => ({ document_id: crypto.randomUUID(), wait_ms: 1000 }));

forEachStack('halacha_extract on the library fixture', [{ db: 'pglite', kv: 'postgres' }], (server) => {
  for (const format of ['pdf', 'docx'] as const) {
    it(
      `finds the fixture’s holdings in ${format} with recall and precision ≥ 95%`,
      async () => {
        const s = server();
        const names = libraryNames.filter((n) => libraryAnswers.documents[n]?.corpus !== 'style');
        const ids = await seedLibrary(s.db.db, names, format);
        const found: { page: number; text: string }[] = [];
        const wanted: { page: number; text: string }[] = [];
        for (const [name, id] of ids) {
          await extractHoldings(s, id);
          const rows = await s.db.db.select().from(holdings).where(eq(holdings.documentId, id));
          found.push(...rows.map((r) => ({ page: r.page, text: `${name}|${ws(r.text)}` })));
          wanted.push(
            ...(libraryAnswers.documents[name]?.holdings ?? []).map((h) => ({
              page: h.page,
              text: `${name}|${ws(h.text)}`,
            })),
          );
        }
        const sc = score(found, wanted);
        console.log(
          `holdings (${format}): recall ${(100 * sc.recall).toFixed(1)}% precision ${(100 * sc.precision).toFixed(1)}% (${sc.tp} of ${wanted.length}, ${sc.fp} extra)`,
        );
        expect(sc.recall).toBeGreaterThanOrEqual(0.95);
        expect(sc.precision).toBeGreaterThanOrEqual(0.95);
      },
      SLOW,
    );
  }
});
