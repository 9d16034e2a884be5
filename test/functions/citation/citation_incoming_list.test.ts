// citation_incoming_list through the official MCP client: who cites a ruling, by id or by numbers in any form
// (also a ruling that is not in the library), with the citing document, passage and treatment; a deleted
// case's documents left out; the refusals; a caller without the grant.
import { expect, it } from 'vitest';
import type { citation_incoming_list } from '../../../functions/citation/citation_incoming_list.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { libraryAnswers } from '../../fixtures/library/library.ts';
import { DB_STACKS, deleteCase, forEachStack } from '../../harness/analysis.ts';
import { seedCase, seedDocument, textBytes } from '../../harness/documents.ts';
import { deniedPrecedent, extractLibrary, seedLibrary } from '../../harness/precedents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';

/** Seeding and extraction through the queue: generous on a loaded machine. */
const SLOW = 120_000;

type Data = ToolData<typeof citation_incoming_list>;

const citersOf = (target: string) =>
  Object.entries(libraryAnswers.documents).flatMap(([name, d]) =>
    d.citations
      .filter(
        (c) => c.target === target || (target.startsWith('X') && c.key === libraryAnswers.absent[target]),
      )
      .map((c) => [name, c.treatment] as const),
  );

forEachStack('citation_incoming_list', DB_STACKS, (server) => {
  it(
    'lists who cites a ruling, with the citing document, passage and treatment, by id or by number',
    async () => {
      const db = server().db.db;
      const ids = await seedLibrary(db);
      await extractLibrary(server());
      const incoming = async (args: Record<string, unknown>) =>
        expectOk<Data>(await server().call('qa', 'citation_incoming_list', args));
      const nameOf = (id: string) => Object.keys(ids).find((n) => ids[n] === id);
      const r01 = await incoming({ document_id: ids.R01, limit: 50 });
      expect(r01.items.map((c) => [nameOf(c.citing.document_id), c.treatment]).sort()).toEqual(
        [...citersOf('R01')].sort(),
      );
      expect(r01.items.every((c) => c.passage.includes(c.provenance.text))).toBe(true);
      const x1 = await incoming({ numbers: 'עע״מ 7777/2018' });
      expect(x1.items.map((c) => nameOf(c.citing.document_id)).sort()).toEqual(
        citersOf('X1')
          .map(([n]) => n)
          .sort(),
      );
      const both = await incoming({ numbers: 'עע"מ 7777/18, בג״ץ 4455/16' });
      expect(both.items).toHaveLength(citersOf('X1').length + citersOf('X2').length);
      const critics = await incoming({ document_id: ids.R02, treatment: 'criticised' });
      expect(critics.items.map((c) => c.citing)).toEqual([
        expect.objectContaining({
          document_id: ids.R09,
          number: 'עע"מ 2156/21',
          decision_date: '2022-12-18',
        }),
      ]);

      const caseId = await seedCase(db);
      const doc = await seedDocument(db, {
        corpus: 'case',
        caseId,
        bytes: textBytes('כפי שנקבע בעע"מ 9001/19.'),
      });
      expectOk(
        await server().call('researcher', 'citation_extract', { document_id: doc.id, wait_ms: 10_000 }),
      );
      const withCase = await incoming({ document_id: ids.R01, limit: 50 });
      expect(withCase.items.map((c) => c.citing.case_id)).toContain(caseId);
      await deleteCase(db, caseId);
      const after = await incoming({ document_id: ids.R01, limit: 50 });
      expect(after.items.map((c) => c.citing.case_id)).not.toContain(caseId);
      expect(after.items).toHaveLength(r01.items.length);
    },
    SLOW,
  );

  it(
    'refuses a bad target: invalid_args and not_found',
    async () => {
      const call = (args: Record<string, unknown>) => server().call('qa', 'citation_incoming_list', args);
      expect(errorCode(await call({}))).toBe('invalid_args');
      expect(errorCode(await call({ numbers: 'לא מספר' }))).toBe('invalid_args');
      expect(errorCode(await call({ document_id: crypto.randomUUID(), numbers: 'ע"א 1/20' }))).toBe(
        'invalid_args',
      );
      expect(errorCode(await call({ document_id: crypto.randomUUID() }))).toBe('not_found');
    },
    SLOW,
  );
});

deniedPrecedent('citation_incoming_list', 'qa', (s) => ({ document_id: s.R01 }), true);
