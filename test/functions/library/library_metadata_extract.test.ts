// library_metadata_extract through the official MCP client: one job per document, wait_ms and the summary,
// the pending ones in one call, the automatic run after an upload, never over a given field, the refusals,
// 20 identical calls at once, and a caller without the grant.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { library_get } from '../../../functions/library/library_get.ts';
import type { library_metadata_extract } from '../../../functions/library/library_metadata_extract.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { jobs } from '../../../src/db/schema/jobs.ts';
import { decisionMetadata } from '../../../src/db/schema/precedents.ts';
import { createDocument } from '../../../src/documents/pipeline.ts';
import { libraryBytes } from '../../fixtures/library/library.ts';
import { ALL_STACKS, DB_STACKS, deleteCase, forEachStack, twentyAtOnce } from '../../harness/analysis.ts';
import { seedCase, seedDocument, textBytes } from '../../harness/documents.ts';
import { drainAll } from '../../harness/drain.ts';
import { deniedPrecedent, precedentCounts, seedLibrary } from '../../harness/precedents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';

/** Seeding and extraction through the queue: generous on a loaded machine. */
const SLOW = 120_000;

type Data = ToolData<typeof library_metadata_extract>;
type Get = ToolData<typeof library_get>;

forEachStack('library_metadata_extract', DB_STACKS, (server) => {
  const extract = (args: Record<string, unknown>) =>
    server().call('researcher', 'library_metadata_extract', args);

  it(
    'reads one document in a job of its own and sums up what it read',
    async () => {
      const { R01 } = await seedLibrary(server().db.db, { names: ['R01'] });
      const data = expectOk<Data>(await extract({ document_id: R01, wait_ms: 10_000 }));
      expect(data.done).toBe(true);
      expect(data.jobs).toEqual([expect.objectContaining({ document_id: R01, state: 'succeeded' })]);
      expect(data.summary).toEqual({ documents: 1, fields_extracted: 8, fields_given: 0 });
      expect(data.next).toContain('library_get');
      // Asking again queues nothing new: the same job, already done.
      const again = expectOk<Data>(await extract({ document_id: R01, wait_ms: 10_000 }));
      expect(again.jobs[0]?.job_id).toBe(data.jobs[0]?.job_id);
    },
    SLOW,
  );

  it(
    'reads every pending library and internal document in one call, then finds none pending',
    async () => {
      await seedLibrary(server().db.db, { names: ['R02', 'I01', 'S01'] });
      const data = expectOk<Data>(await extract({ all_pending: true, wait_ms: 10_000 }));
      expect(data.done).toBe(true);
      expect(data.jobs.length).toBeGreaterThanOrEqual(2);
      const none = expectOk<Data>(await extract({ all_pending: true }));
      expect(none.jobs).toEqual([]);
      expect(none.next).toMatch(/Nothing pending/);
    },
    SLOW,
  );

  it(
    'runs by itself after a ruling is uploaded, and keeps what the uploader gave',
    async () => {
      const text = new TextDecoder().decode(await libraryBytes('R06', 'txt'));
      const up = expectOk<{ document: { id: string } }>(
        await server().call('researcher', 'library_add', { text, number: 'בר״מ 5150/14', court: 'העליון' }),
      );
      await drainAll(server());
      const r06 = expectOk<Get>(
        await server().call('researcher', 'library_get', { document_id: up.document.id }),
      ).items[0];
      expect(r06?.metadata).toBe('extracted');
      expect(r06?.fields.court).toMatchObject({ value: 'העליון', source: 'given' });
      expect(r06?.fields.number).toMatchObject({ value: 'בר״מ 5150/14', source: 'given' });
      expect(r06?.fields.proceeding).toMatchObject({ value: 'בר"מ', source: 'given' });
      expect(r06?.fields.outcome).toMatchObject({ value: 'rejection', source: 'extracted' });
    },
    SLOW,
  );

  it(
    'refuses a bad target: invalid_args, invalid_state, not_found',
    async () => {
      const db = server().db.db;
      const { S02 } = await seedLibrary(db, { names: ['S02'] });
      const caseId = await seedCase(db);
      const caseDoc = await seedDocument(db, { corpus: 'case', caseId, bytes: textBytes('כתב ערר') });
      const before = await precedentCounts(db);
      expect(errorCode(await extract({}))).toBe('invalid_args');
      expect(errorCode(await extract({ document_id: S02, all_pending: true }))).toBe('invalid_args');
      expect(errorCode(await extract({ document_id: S02 }))).toBe('invalid_args');
      expect(errorCode(await extract({ document_id: caseDoc.id }))).toBe('invalid_args');
      const { document } = await createDocument(db, {
        corpus: 'library',
        caseId: null,
        bytes: textBytes('פסק דין שטרם חולץ'),
        title: 'טרם',
        createdBy: 'test',
      });
      expect(errorCode(await extract({ document_id: document.id }))).toBe('invalid_state');
      expect(errorCode(await extract({ document_id: crypto.randomUUID() }))).toBe('not_found');
      await deleteCase(db, caseId);
      expect(errorCode(await extract({ document_id: caseDoc.id }))).toBe('not_found');
      expect(await precedentCounts(db)).toEqual(before);
    },
    SLOW,
  );
});

forEachStack('library_metadata_extract at once', ALL_STACKS, (server) => {
  it(
    '20 identical calls queue one job and write one metadata row',
    async () => {
      const db = server().db.db;
      const { R08 } = await seedLibrary(db, { names: ['R08'] });
      const answers = await twentyAtOnce(
        server(),
        'library_metadata_extract',
        { document_id: R08, wait_ms: 10_000 },
        ['researcher'],
      );
      for (const a of answers) expect(a.ok).toBe(true);
      const queued = await db
        .select()
        .from(jobs)
        .where(eq(jobs.subject, `document:${R08}`));
      expect(queued.filter((j) => j.kind === 'library_metadata_extract')).toHaveLength(1);
      expect(
        await db
          .select()
          .from(decisionMetadata)
          .where(eq(decisionMetadata.documentId, R08 as string)),
      ).toHaveLength(1);
    },
    SLOW,
  );
});

deniedPrecedent('library_metadata_extract', 'analyst', (s) => ({ document_id: s.R01 }));
