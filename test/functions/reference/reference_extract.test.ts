// reference_extract through the official MCP client: one job per document, wait_ms, the summary, offsets
// into the page text, a repeat that queues nothing, a re-run that keeps the same rows, the refusals, a
// deleted case, 20 identical calls at once, and a caller without the grant.
import { and, asc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { reference_extract } from '../../../functions/reference/reference_extract.ts';
import { referenceExtractor } from '../../../src/analysis/extractors.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { caseReferences } from '../../../src/db/schema/analysis.ts';
import { documents } from '../../../src/db/schema/documents.ts';
import { jobs } from '../../../src/db/schema/jobs.ts';
import { createDocument } from '../../../src/documents/pipeline.ts';
import { documentPageTexts } from '../../../src/extractors/framework.ts';
import { caseFileAnswers } from '../../fixtures/case_file/case_file.ts';
import {
  ALL_STACKS,
  DB_STACKS,
  deleteCase,
  deniedTo,
  forEachStack,
  seedCaseFile,
  tableCounts,
  twentyAtOnce,
} from '../../harness/analysis.ts';
import { seedCase, seedDocument, textBytes } from '../../harness/documents.ts';
import { rerun } from '../../harness/rerun.ts';
import { errorCode, expectOk } from '../../harness/server.ts';

type Data = ToolData<typeof reference_extract>;
const planted = Object.values(caseFileAnswers.documents).reduce((n, d) => n + d.references.length, 0);

forEachStack('reference_extract', DB_STACKS, (server) => {
  const extract = (args: Record<string, unknown>) => server().call('analyst', 'reference_extract', args);
  const rowsOf = (documentId: string) =>
    server()
      .db.db.select()
      .from(caseReferences)
      .where(eq(caseReferences.documentId, documentId))
      .orderBy(asc(caseReferences.page), asc(caseReferences.start), asc(caseReferences.key));

  it('finds every planted reference of the case, each at its offsets in the page text', async () => {
    const db = server().db.db;
    const { caseId, docs } = await seedCaseFile(db);
    const env = await extract({ case_id: caseId, wait_ms: 10_000 });
    const data = expectOk<Data>(env);
    expect(data.done).toBe(true);
    expect(data.jobs).toHaveLength(6);
    expect(data.jobs.every((j) => j.state === 'succeeded')).toBe(true);
    expect(data.summary?.references).toBe(planted);
    expect(data.next).toContain('reference_list');
    expect(env.message).toMatch(/references/);
    for (const id of Object.values(docs)) {
      const pages = await documentPageTexts(db, id);
      for (const r of await rowsOf(id)) {
        expect(pages[r.page - 1]?.slice(r.start, r.end)).toBe(r.text);
        expect(r).toMatchObject({ caseId, extractorVersion: 'references@1' });
      }
    }
    // The roles were detected on the way.
    const roles = await db
      .select({ id: documents.id, role: documents.role, source: documents.roleSource })
      .from(documents)
      .where(eq(documents.caseId, caseId));
    expect(roles.every((r) => r.source === 'detected' && r.role !== null)).toBe(true);
  });

  it('answers at once without wait_ms; asking again queues nothing new and a re-run keeps the same rows', async () => {
    const { docs } = await seedCaseFile(server().db.db, { names: ['response'] });
    const queued = expectOk<Data>(await extract({ document_id: docs.response }));
    expect(queued).toMatchObject({ done: false, summary: null });
    expect(queued.next).toMatch(/background/);
    const done = expectOk<Data>(await extract({ document_id: docs.response, wait_ms: 10_000 }));
    expect(done.jobs[0]?.job_id).toBe(queued.jobs[0]?.job_id);
    expect(done.summary).toEqual({ references: 8, keys: 8 });
    const before = await rowsOf(docs.response);
    await rerun(server().db.db, referenceExtractor, docs.response);
    expect(await rowsOf(docs.response)).toEqual(before);
    const again = expectOk<Data>(await extract({ document_id: docs.response }));
    expect(again.jobs[0]?.job_id).toBe(queued.jobs[0]?.job_id);
    const kinds = await server()
      .db.db.select()
      .from(jobs)
      .where(and(eq(jobs.kind, 'reference_extract'), eq(jobs.subject, `document:${docs.response}`)));
    expect(kinds).toHaveLength(1);
  });

  it('refuses what it cannot read: invalid_state before the text exists, invalid_args, not_found', async () => {
    const db = server().db.db;
    const caseId = await seedCase(db);
    const { document } = await createDocument(db, {
      corpus: 'case',
      caseId,
      bytes: textBytes(`כתב ערר ${crypto.randomUUID()}`),
      title: 'ממתין',
      createdBy: 'test',
    });
    const pending = await extract({ document_id: document.id });
    expect(errorCode(pending)).toBe('invalid_state');
    expect(pending.ok ? '' : pending.error.hint).toMatch(/extraction_status/);
    expect(errorCode(await extract({ case_id: caseId }))).toBe('invalid_state');
    const style = await seedDocument(db, {
      corpus: 'style',
      caseId: null,
      bytes: textBytes(`דוגמה ${crypto.randomUUID()}`),
    });
    expect(errorCode(await extract({ document_id: style.id }))).toBe('invalid_args');
    expect(errorCode(await extract({}))).toBe('invalid_args');
    expect(errorCode(await extract({ document_id: document.id, case_id: caseId }))).toBe('invalid_args');
    expect(errorCode(await extract({ case_id: caseId, wait_ms: 10_001 }))).toBe('invalid_args');
    expect(errorCode(await extract({ document_id: crypto.randomUUID() }))).toBe('not_found');
    expect(errorCode(await extract({ case_id: crypto.randomUUID() }))).toBe('not_found');
  });

  it('a deleted case and its documents are not_found, and nothing is written', async () => {
    const db = server().db.db;
    const { caseId, docs } = await seedCaseFile(db, { names: ['appeal'] });
    await deleteCase(db, caseId);
    const before = await tableCounts(db);
    expect(errorCode(await extract({ case_id: caseId, wait_ms: 1000 }))).toBe('not_found');
    expect(errorCode(await extract({ document_id: docs.appeal, wait_ms: 1000 }))).toBe('not_found');
    expect(await tableCounts(db)).toEqual(before);
    const [doc] = await db.select().from(documents).where(eq(documents.id, docs.appeal));
    expect(doc?.role).toBeNull();
  });
});

forEachStack('reference_extract under concurrency', ALL_STACKS, (server) => {
  it('20 identical calls at once: one job per document, one set of rows', async () => {
    const { caseId, docs } = await seedCaseFile(server().db.db, { names: ['appeal', 'response'] });
    const answers = await twentyAtOnce(server(), 'reference_extract', { case_id: caseId, wait_ms: 10_000 });
    for (const a of answers) expectOk(a);
    const queued = await server().db.db.select().from(jobs).where(eq(jobs.kind, 'reference_extract'));
    for (const id of Object.values(docs))
      expect(queued.filter((j) => j.subject === `document:${id}`)).toHaveLength(1);
    const rows = await server().db.db.select().from(caseReferences).where(eq(caseReferences.caseId, caseId));
    expect(rows).toHaveLength(18 + 8);
  });
});

deniedTo('reference_extract', 'researcher', (c) => ({ case_id: c.caseId, wait_ms: 1000 }));
