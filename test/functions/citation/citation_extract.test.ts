// citation_extract through the official MCP client: every citation of the fixture found and resolved to the
// document with that number, unresolved ones opening one missing precedent per number, a later upload of an
// absent ruling resolving them and closing its missing precedent as found (on its own, after upload), a
// case's documents (their own number left out), the refusals, a deleted case, 20 identical calls at once, and
// a caller without the grant.
import { and, eq, isNull } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { citation_extract } from '../../../functions/citation/citation_extract.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { cases } from '../../../src/db/schema/cases.ts';
import { citations, missingPrecedents } from '../../../src/db/schema/precedents.ts';
import { createDocument } from '../../../src/documents/pipeline.ts';
import { libraryAnswers } from '../../fixtures/library/library.ts';
import { ALL_STACKS, DB_STACKS, deleteCase, forEachStack, twentyAtOnce } from '../../harness/analysis.ts';
import { seedCase, seedDocument, textBytes } from '../../harness/documents.ts';
import { drainAll } from '../../harness/drain.ts';
import { deniedPrecedent, precedentCounts, type Seeded, seedLibrary } from '../../harness/precedents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';

/** Seeding and extraction through the queue: generous on a loaded machine. */
const SLOW = 120_000;

type Data = ToolData<typeof citation_extract>;
const ABSENT_X1 =
  'בבית המשפט העליון\nעע"מ 7777/18 פלוני נ\' הוועדה המקומית לתכנון ובנייה נתניה\nפסק דין\n1. הערעור נדחה.\nניתן היום, 1.3.2019.';

/** A case whose file number is `number`, holding one document with `text`. */
async function caseWith(db: Parameters<typeof seedCase>[0], number: string, texts: string[]) {
  const caseId = await seedCase(db);
  await db.update(cases).set({ caseNumber: number }).where(eq(cases.id, caseId));
  const docs = [];
  for (const text of texts)
    docs.push((await seedDocument(db, { corpus: 'case', caseId, bytes: textBytes(text) })).id);
  return { caseId, docs };
}

forEachStack('citation_extract', DB_STACKS, (server) => {
  let ids: Seeded;
  const extract = (args: Record<string, unknown>) => server().call('researcher', 'citation_extract', args);

  it(
    'finds and resolves every citation of the fixture, opening one missing precedent per absent ruling',
    async () => {
      const db = server().db.db;
      ids = await seedLibrary(db);
      expectOk(
        await server().call('researcher', 'library_metadata_extract', { all_pending: true, wait_ms: 10_000 }),
      );
      const internal = expectOk<Data>(await extract({ corpus: 'internal', wait_ms: 10_000 }));
      const expected = (names: string[]) =>
        names.flatMap((n) => libraryAnswers.documents[n]?.citations ?? []);
      const internalNames = Object.keys(ids).filter((n) => n.startsWith('I'));
      const want = expected(internalNames);
      expect(internal.summary).toEqual({
        citations: want.length,
        resolved: want.filter((c) => c.target !== null).length,
        unresolved: want.filter((c) => c.target === null).length,
        missing_open: 2,
      });
      expectOk(await extract({ corpus: 'library', wait_ms: 10_000 }));
      for (const [name, id] of Object.entries(ids)) {
        const rows = await db.select().from(citations).where(eq(citations.documentId, id));
        const answers = libraryAnswers.documents[name]?.citations ?? [];
        expect(rows.map((r) => [r.key, r.citedDocumentId, r.treatment]).sort(), name).toEqual(
          answers.map((c) => [c.key, c.target === null ? null : ids[c.target], c.treatment]).sort(),
        );
      }
      const open = await db.select().from(missingPrecedents).where(eq(missingPrecedents.status, 'open'));
      expect(open.map((m) => m.key).sort()).toEqual(Object.values(libraryAnswers.absent).sort());
      expect(open.every((m) => m.createdBy === 'citation_extract' && m.citationId !== null)).toBe(true);
    },
    SLOW,
  );

  it(
    'resolves the earlier citations of a ruling uploaded later and closes its missing precedent as found',
    async () => {
      const db = server().db.db;
      const up = expectOk<{ document: { id: string } }>(
        await server().call('researcher', 'library_add', { text: ABSENT_X1, title: 'עע"מ 7777/18' }),
      );
      await drainAll(server());
      const x1 = await db.select().from(citations).where(eq(citations.key, 'עע"מ 7777/18'));
      expect(x1.length).toBeGreaterThan(0);
      expect(x1.every((c) => c.citedDocumentId === up.document.id)).toBe(true);
      const [closed] = await db
        .select()
        .from(missingPrecedents)
        .where(eq(missingPrecedents.key, 'עע"מ 7777/18'));
      expect(closed).toMatchObject({
        status: 'closed',
        resolution: 'found',
        documentId: up.document.id,
        closedBy: 'library_metadata_extract',
      });
      expect(closed?.reason).toMatch(/Found/);
      // The other absent ruling stays missing.
      const still = await db
        .select()
        .from(missingPrecedents)
        .where(and(eq(missingPrecedents.key, 'בג"ץ 4455/16'), eq(missingPrecedents.status, 'open')));
      expect(still).toHaveLength(1);
    },
    SLOW,
  );

  it(
    'reads a case’s documents, leaves out the case’s own number, and opens no second missing precedent',
    async () => {
      const db = server().db.db;
      const { caseId, docs } = await caseWith(db, 'ערר 2041/25', [
        'ערר מס\' 2041/25\nכפי שנקבע בעע״מ 9001/19, המבחן ברור. ראו גם בג"ץ 4455/16 ובר"מ 999/23.',
      ]);
      const data = expectOk<Data>(await extract({ case_id: caseId, wait_ms: 10_000 }));
      expect(data.summary).toMatchObject({ citations: 3, resolved: 1, unresolved: 2 });
      const rows = await db
        .select()
        .from(citations)
        .where(eq(citations.documentId, docs[0] as string));
      expect(rows.map((r) => r.key).sort()).toEqual(['בג"ץ 4455/16', 'בר"מ 999/23', 'עע"מ 9001/19'].sort());
      expect(rows.every((r) => r.caseId === caseId)).toBe(true);
      const missing = await db
        .select()
        .from(missingPrecedents)
        .where(eq(missingPrecedents.key, 'בג"ץ 4455/16'));
      expect(missing).toHaveLength(1);
      const opened = await db
        .select()
        .from(missingPrecedents)
        .where(eq(missingPrecedents.key, 'בר"מ 999/23'));
      expect(opened).toEqual([expect.objectContaining({ caseId, status: 'open' })]);
    },
    SLOW,
  );

  it(
    'runs by itself after a case document is uploaded',
    async () => {
      const db = server().db.db;
      const caseId = await seedCase(db);
      const up = expectOk<{ document: { id: string } }>(
        await server().call('ceo', 'document_upload', {
          corpus: 'case',
          case_id: caseId,
          text: 'כתב ערר\nהעוררים מפנים לעת״מ 12345-05-20 ולעמ"נ 30567-02-21.',
        }),
      );
      await drainAll(server());
      const rows = await db.select().from(citations).where(eq(citations.documentId, up.document.id));
      expect(rows.map((r) => r.citedDocumentId).sort()).toEqual([ids.R07, ids.R10].sort());
    },
    SLOW,
  );

  it(
    'refuses a bad target (invalid_args, invalid_state, not_found) and a deleted case’s documents',
    async () => {
      const db = server().db.db;
      const { caseId, docs } = await caseWith(db, 'ערר 3000/25', ['ראו ע"א 1108/97.']);
      const { document } = await createDocument(db, {
        corpus: 'internal',
        caseId: null,
        bytes: textBytes('החלטה שטרם חולצה'),
        title: 'טרם',
        createdBy: 'test',
      });
      const before = await precedentCounts(db);
      expect(errorCode(await extract({}))).toBe('invalid_args');
      expect(errorCode(await extract({ document_id: docs[0], case_id: caseId }))).toBe('invalid_args');
      expect(errorCode(await extract({ document_id: ids.S01 }))).toBe('invalid_args');
      expect(errorCode(await extract({ document_id: document.id }))).toBe('invalid_state');
      expect(errorCode(await extract({ document_id: crypto.randomUUID() }))).toBe('not_found');
      await deleteCase(db, caseId);
      expect(errorCode(await extract({ case_id: caseId }))).toBe('not_found');
      expect(errorCode(await extract({ document_id: docs[0] }))).toBe('not_found');
      expect(await precedentCounts(db)).toEqual(before);
      const unresolved = await db.select().from(citations).where(isNull(citations.citedDocumentId));
      expect(unresolved.every((c) => c.documentId !== docs[0])).toBe(true);
    },
    SLOW,
  );
});

forEachStack('citation_extract at once', ALL_STACKS, (server) => {
  it(
    '20 identical calls give one job per document and one missing precedent per number',
    async () => {
      const db = server().db.db;
      const { caseId, docs } = await caseWith(db, 'ערר 4000/25', [
        'ראו עע"מ 5555/21 ובג"ץ 6666/22.',
        'להבדיל מעע״מ 5555/21, כאן נסיבות אחרות.',
      ]);
      const answers = await twentyAtOnce(server(), 'citation_extract', { case_id: caseId, wait_ms: 10_000 }, [
        'researcher',
      ]);
      for (const a of answers) expect(a.ok).toBe(true);
      for (const id of docs) {
        expect(
          await db
            .select()
            .from(citations)
            .where(eq(citations.documentId, id as string)),
        ).toHaveLength(id === docs[0] ? 2 : 1);
      }
      expect(
        await db.select().from(missingPrecedents).where(eq(missingPrecedents.key, 'עע"מ 5555/21')),
      ).toHaveLength(1);
    },
    SLOW,
  );
});

deniedPrecedent('citation_extract', 'writer', (s) => ({ document_id: s.I01 }));
