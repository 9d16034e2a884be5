// style_corpus_enrich through the official MCP client: the fixture's style decisions cut into their parts at
// their offsets (recall and precision ≥ 95% in every format, printed) with their outcomes; all_pending; the
// automatic run after upload; a repeat that queues nothing and a re-run that gives the same segments; the
// refusals; 20 identical calls at once; a caller without the grant.
import { and, asc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { style_corpus_enrich } from '../../../functions/style/style_corpus_enrich.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { styleEnrichments, styleSegments } from '../../../src/db/schema/holdings.ts';
import { jobs } from '../../../src/db/schema/jobs.ts';
import { createDocument } from '../../../src/documents/pipeline.ts';
import { documentPageTexts } from '../../../src/extractors/framework.ts';
import { styleExtractor } from '../../../src/style/extractor.ts';
import { libraryAnswers, libraryBytes, namesOf } from '../../fixtures/library/library.ts';
import { ALL_STACKS, DB_STACKS, deniedTo, forEachStack, twentyAtOnce } from '../../harness/analysis.ts';
import { seedDocument, textBytes } from '../../harness/documents.ts';
import { seedLibrary } from '../../harness/holdings_fixtures.ts';
import { rerun } from '../../harness/rerun.ts';
import { score, ws } from '../../harness/scores.ts';
import { errorCode, expectOk } from '../../harness/server.ts';

/** Seeding and extraction through the queue: generous on a loaded machine. */
const SLOW = 120_000;

type Data = ToolData<typeof style_corpus_enrich>;
const STYLE = namesOf('style');

forEachStack('style_corpus_enrich', DB_STACKS, (server) => {
  const enrich = (args: Record<string, unknown>) => server().call('researcher', 'style_corpus_enrich', args);
  const segmentsOf = (documentId: string) =>
    server()
      .db.db.select()
      .from(styleSegments)
      .where(eq(styleSegments.documentId, documentId))
      .orderBy(asc(styleSegments.position));

  for (const format of ['txt', 'pdf', 'docx'] as const) {
    it(
      `cuts the fixture’s decisions (${format}) into their parts with recall and precision ≥ 95%`,
      async () => {
        const db = server().db.db;
        const ids = await seedLibrary(db, STYLE, format);
        const found: { page: number; text: string }[] = [];
        const wanted: { page: number; text: string }[] = [];
        for (const [name, id] of ids) {
          const data = expectOk<Data>(await enrich({ document_id: id, wait_ms: 10_000 }));
          expect(data.done).toBe(true);
          expect(data.summary?.outcomes).toEqual([
            { document_id: id, outcome: libraryAnswers.documents[name]?.outcome },
          ]);
          const pages = await documentPageTexts(db, id);
          for (const s of await segmentsOf(id)) {
            expect(pages[s.page - 1]?.slice(s.start, s.end)).toBe(s.text);
            expect(s.extractorVersion).toBe('style@1');
            found.push({ page: s.page, text: `${name}|${s.part}|${ws(s.text)}` });
          }
          wanted.push(
            ...(libraryAnswers.documents[name]?.parts ?? []).map((p) => ({
              page: p.page,
              text: `${name}|${p.part}|${ws(p.text)}`,
            })),
          );
        }
        const sc = score(found, wanted);
        console.log(
          `style segments (${format}): recall ${(100 * sc.recall).toFixed(1)}% precision ${(100 * sc.precision).toFixed(1)}% (${sc.tp} of ${wanted.length}, ${sc.fp} extra)`,
        );
        expect(sc.recall).toBeGreaterThanOrEqual(0.95);
        expect(sc.precision).toBeGreaterThanOrEqual(0.95);
      },
      SLOW,
    );
  }

  it(
    'asking again queues nothing new; a re-run gives the same segments; the summary counts parts',
    async () => {
      const db = server().db.db;
      const ids = await seedLibrary(db, ['S02'], 'txt');
      const id = ids.get('S02') ?? '';
      const queued = expectOk<Data>(await enrich({ document_id: id }));
      const done = expectOk<Data>(await enrich({ document_id: id, wait_ms: 10_000 }));
      expect(done.jobs[0]?.job_id).toBe(queued.jobs[0]?.job_id);
      expect(done.summary?.parts.map((p) => p.part)).toEqual([
        'header',
        'parties',
        'background',
        'claims',
        'discussion',
        'outcome',
        'signatures',
      ]);
      expect(done.next).toMatch(/style_corpus_pending_list/);
      const before = (await segmentsOf(id)).map(({ id: _, createdAt: __, ...rest }) => rest);
      await rerun(db, styleExtractor, id);
      expect((await segmentsOf(id)).map(({ id: _, createdAt: __, ...rest }) => rest)).toEqual(before);
      const all = await db
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, 'style_corpus_enrich'), eq(jobs.subject, `document:${id}`)));
      expect(all).toHaveLength(1);
    },
    SLOW,
  );

  it(
    'all_pending enriches every style document not yet enriched and lists those not ready as skipped',
    async () => {
      const db = server().db.db;
      const ready = await seedDocument(db, {
        corpus: 'style',
        caseId: null,
        bytes: textBytes(`החלטה\n1. הערר נדחה. ${crypto.randomUUID()}`),
      });
      const { document: waiting } = await createDocument(db, {
        corpus: 'style',
        caseId: null,
        bytes: textBytes(`ממתין ${crypto.randomUUID()}`),
        title: 'ממתין',
        createdBy: 'test',
      });
      const data = expectOk<Data>(await enrich({ all_pending: true, wait_ms: 10_000 }));
      expect(data.done).toBe(true);
      expect(data.jobs.map((j) => j.document_id)).toContain(ready.id);
      expect(data.skipped).toContainEqual({ document_id: waiting.id, status: 'pending' });
      const [row] = await db.select().from(styleEnrichments).where(eq(styleEnrichments.documentId, ready.id));
      expect(row).toMatchObject({ segmenterVersion: 'style@1', outcome: 'rejection' });
      // Nothing pending is left that is ready: a second call has nothing to run.
      const again = expectOk<Data>(await enrich({ all_pending: true, wait_ms: 10_000 }));
      expect(again.jobs.map((j) => j.document_id)).not.toContain(ready.id);
    },
    SLOW,
  );

  it(
    'runs by itself after a style example is uploaded and its text extracted',
    async () => {
      const s = server();
      const text = new TextDecoder().decode(await libraryBytes('S03', 'txt'));
      const up = expectOk<{ document: { id: string } }>(
        await s.call('ceo', 'document_upload', { corpus: 'style', text: `${text}\n${crypto.randomUUID()}` }),
      );
      for (let i = 0; i < 5; i++) {
        const r = expectOk<{ claimed: number }>(await s.call('ceo', 'extraction_run', { max_jobs: 50 }));
        if (r.claimed === 0) break;
      }
      expect((await segmentsOf(up.document.id)).length).toBeGreaterThanOrEqual(7);
    },
    SLOW,
  );

  it(
    'refuses what it cannot read: invalid_state, invalid_args, not_found',
    async () => {
      const db = server().db.db;
      const { document } = await createDocument(db, {
        corpus: 'style',
        caseId: null,
        bytes: textBytes(`דוגמה ${crypto.randomUUID()}`),
        title: 'ממתין',
        createdBy: 'test',
      });
      expect(errorCode(await enrich({ document_id: document.id }))).toBe('invalid_state');
      const ruling = await seedDocument(db, {
        corpus: 'library',
        caseId: null,
        bytes: textBytes(`פסק דין ${crypto.randomUUID()}`),
      });
      expect(errorCode(await enrich({ document_id: ruling.id }))).toBe('invalid_args');
      expect(errorCode(await enrich({}))).toBe('invalid_args');
      expect(errorCode(await enrich({ document_id: ruling.id, all_pending: true }))).toBe('invalid_args');
      expect(errorCode(await enrich({ all_pending: false }))).toBe('invalid_args');
      expect(errorCode(await enrich({ document_id: crypto.randomUUID() }))).toBe('not_found');
    },
    SLOW,
  );
});

forEachStack('style_corpus_enrich under concurrency', ALL_STACKS, (server) => {
  it(
    '20 identical calls at once: one job, one set of segments',
    async () => {
      const ids = await seedLibrary(server().db.db, ['S01'], 'docx');
      const id = ids.get('S01') ?? '';
      const answers = await twentyAtOnce(
        server(),
        'style_corpus_enrich',
        { document_id: id, wait_ms: 10_000 },
        ['researcher'],
      );
      for (const a of answers) expectOk(a);
      const queued = await server()
        .db.db.select()
        .from(jobs)
        .where(and(eq(jobs.kind, 'style_corpus_enrich'), eq(jobs.subject, `document:${id}`)));
      expect(queued).toHaveLength(1);
      const rows = await server().db.db.select().from(styleSegments).where(eq(styleSegments.documentId, id));
      expect(rows).toHaveLength(libraryAnswers.documents.S01?.parts?.length ?? -1);
    },
    SLOW,
  );
});

deniedTo('style_corpus_enrich', 'writer', () => ({ all_pending: true }));
