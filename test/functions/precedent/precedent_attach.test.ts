// precedent_attach: a quote pinned to a section of a case's decision, checked against its page; the natural key
// (case, section, the citation's proceeding, the quote with whitespace and quote marks normalised); the refusals;
// a deleted case; 20 identical calls at once; a caller without the grant.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { casePrecedents } from '../../../src/db/schema/holdings.ts';
import { createDocument } from '../../../src/documents/pipeline.ts';
import {
  ALL_STACKS,
  DB_STACKS,
  deleteCase,
  deniedTo,
  forEachStack,
  twentyAtOnce,
} from '../../harness/analysis.ts';
import { seedCase, seedDocument, textBytes } from '../../harness/documents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { attach, type PrecedentData, QUOTE, seedQuoted } from './_precedent.ts';

/** Seeding and extraction through the queue: generous on a loaded machine. */
const SLOW = 120_000;

forEachStack('precedent_attach', DB_STACKS, (server) => {
  const call = (args: Record<string, unknown>) => server().call('researcher', 'precedent_attach', args);
  const rowsOf = (caseId: string) =>
    server().db.db.select().from(casePrecedents).where(eq(casePrecedents.caseId, caseId));

  it(
    'pins a quote checked against its page; the same quote in any spelling is the same precedent',
    async () => {
      const s = server();
      const caseId = await seedCase(s.db.db);
      const documentId = await seedQuoted(s.db.db);
      const first = await attach(s, {
        case_id: caseId,
        section: 'discussion',
        citation: 'עע"מ 9001/19 כהן נ\' הוועדה המקומית רעננה',
        quote: QUOTE,
        document_id: documentId,
        page: 1,
      });
      expect(first).toMatchObject({
        created: true,
        precedent: {
          case_id: caseId,
          section: 'discussion',
          citation_key: 'עע"מ 9001/19',
          document_id: documentId,
          page: 1,
        },
      });
      // Another quote-mark form, spacing and section case: the same natural key.
      const again = await attach(s, {
        case_id: caseId,
        section: ' Discussion ',
        citation: 'עע״מ 9001/2019',
        quote: `  ${QUOTE.replace(/ /g, '\n ')} `,
        document_id: documentId,
        page: 1,
      });
      expect(again).toMatchObject({
        created: false,
        precedent: { precedent_id: first.precedent.precedent_id },
      });
      // Another section is another precedent; no document is needed.
      const other = await attach(s, {
        case_id: caseId,
        section: 'outcome',
        citation: 'עע"מ 9001/19',
        quote: QUOTE,
      });
      expect(other.created).toBe(true);
      expect(await rowsOf(caseId)).toHaveLength(2);
    },
    SLOW,
  );

  it(
    'refuses: a quote not on the page, a page without document, a case document (invalid_args)',
    async () => {
      const s = server();
      const caseId = await seedCase(s.db.db);
      const documentId = await seedQuoted(s.db.db);
      const base = { case_id: caseId, section: 'discussion', citation: 'עע"מ 9001/19', quote: QUOTE };
      expect(
        errorCode(await call({ ...base, quote: 'מילים שאינן שם', document_id: documentId, page: 1 })),
      ).toBe('invalid_args');
      expect(errorCode(await call({ ...base, document_id: documentId, page: 9 }))).toBe('invalid_args');
      expect(errorCode(await call({ ...base, page: 1 }))).toBe('invalid_args');
      const caseDoc = await seedDocument(s.db.db, {
        corpus: 'case',
        caseId,
        bytes: textBytes(`ערר ${crypto.randomUUID()}`),
      });
      expect(errorCode(await call({ ...base, document_id: caseDoc.id }))).toBe('invalid_args');
      expect(errorCode(await call({ ...base, section: '  ' }))).toBe('invalid_args');
      expect(await rowsOf(caseId)).toHaveLength(0);
    },
    SLOW,
  );

  it(
    'refuses a page of a document not yet read (invalid_state) and other details for the same key',
    async () => {
      const s = server();
      const caseId = await seedCase(s.db.db);
      const { document } = await createDocument(s.db.db, {
        corpus: 'library',
        caseId: null,
        bytes: textBytes(`פסק דין ${crypto.randomUUID()}`),
        title: 'ממתין',
        createdBy: 'test',
      });
      const base = { case_id: caseId, section: 'discussion', citation: 'עע"מ 9001/19', quote: QUOTE };
      expect(errorCode(await call({ ...base, document_id: document.id, page: 1 }))).toBe('invalid_state');
      expectOk(await call({ ...base, document_id: document.id }));
      const other = await call({ ...base, citation: 'עע״מ 9001/19' });
      expect(errorCode(other)).toBe('idempotency_key_reuse');
      expect(other.ok ? null : other.error.details).toMatchObject({ different: ['document_id'] });
    },
    SLOW,
  );

  it(
    'a deleted case or an unknown document is not_found, and nothing is written',
    async () => {
      const s = server();
      const caseId = await seedCase(s.db.db);
      const base = { case_id: caseId, section: 'discussion', citation: 'עע"מ 9001/19', quote: QUOTE };
      expect(errorCode(await call({ ...base, document_id: crypto.randomUUID() }))).toBe('not_found');
      await deleteCase(s.db.db, caseId);
      expect(errorCode(await call(base))).toBe('not_found');
      expect(errorCode(await call({ ...base, case_id: crypto.randomUUID() }))).toBe('not_found');
      expect(await rowsOf(caseId)).toHaveLength(0);
    },
    SLOW,
  );
});

forEachStack('precedent_attach under concurrency', ALL_STACKS, (server) => {
  it(
    '20 identical calls at once (two agents): one precedent',
    async () => {
      const s = server();
      const caseId = await seedCase(s.db.db);
      const args = { case_id: caseId, section: 'discussion', citation: 'בג"ץ 1234/20', quote: QUOTE };
      const answers = await twentyAtOnce(s, 'precedent_attach', args, ['researcher', 'writer']);
      const ids = new Set(answers.map((a) => expectOk<PrecedentData>(a).precedent.precedent_id));
      expect(ids.size).toBe(1);
      expect(
        await s.db.db.select().from(casePrecedents).where(eq(casePrecedents.caseId, caseId)),
      ).toHaveLength(1);
    },
    SLOW,
  );
});

deniedTo('precedent_attach', 'qa', (c) => ({
  case_id: c.caseId,
  section: 'discussion',
  citation: 'עע"מ 9001/19',
  quote: QUOTE,
}));
