// citation_list through the official MCP client: a document's citations in order, each with its treatment,
// cue (at its offsets), passage, provenance and what it resolves to; filters and paging; a deleted case's
// document unreachable; a caller without the grant. A ruling pasted from its first paragraph, with no heading,
// keeps every number it cites (none is taken for its own); one headed by its number leaves only that out.
import { expect, it } from 'vitest';
import type { citation_list } from '../../../functions/citation/citation_list.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { documentPageTexts } from '../../../src/extractors/framework.ts';
import { libraryAnswers } from '../../fixtures/library/library.ts';
import { DB_STACKS, deleteCase, forEachStack } from '../../harness/analysis.ts';
import { seedCase, seedDocument, textBytes } from '../../harness/documents.ts';
import { drainAll } from '../../harness/drain.ts';
import { deniedPrecedent, extractLibrary, seedLibrary } from '../../harness/precedents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';

/** Seeding and extraction through the queue: generous on a loaded machine. */
const SLOW = 120_000;

type Data = ToolData<typeof citation_list>;

forEachStack('citation_list', DB_STACKS, (server) => {
  it(
    'lists a decision’s citations in order with treatment, cue, passage and resolution',
    async () => {
      const db = server().db.db;
      const ids = await seedLibrary(db);
      await extractLibrary(server());
      const list = async (args: Record<string, unknown>) =>
        expectOk<Data>(await server().call('writer', 'citation_list', args));
      const data = await list({ document_id: ids.I07 });
      const answers = libraryAnswers.documents.I07?.citations ?? [];
      expect(data.items.map((c) => [c.key, c.treatment, c.resolved_to?.document_id ?? null])).toEqual(
        answers.map((a) => [a.key, a.treatment, a.target === null ? null : ids[a.target]]),
      );
      const pages = await documentPageTexts(db, ids.I07 as string);
      for (const c of data.items) {
        const page = pages[c.provenance.page - 1] ?? '';
        expect(page.slice(c.provenance.start, c.provenance.end)).toBe(c.provenance.text);
        if (c.cue !== null) expect(page.slice(c.cue.start, c.cue.end)).toBe(c.cue.text);
        expect(c.passage).toContain(c.provenance.text);
      }
      expect(data.items[0]?.resolved_to).toMatchObject({
        number: 'ערר 85012/21',
        decision_date: '2021-12-20',
      });
      expect(
        (await list({ document_id: ids.I07, resolution: 'unresolved' })).items.map((c) => c.key),
      ).toEqual(['עע"מ 7777/18']);
      expect(
        (await list({ document_id: ids.I07, treatment: 'distinguished' })).items.map((c) => c.key),
      ).toEqual(['עת"מ 4432-11-18']);
      const first = await list({ document_id: ids.I07, limit: 2 });
      const rest = await list({ document_id: ids.I07, limit: 2, cursor: first.next_cursor });
      expect([...first.items, ...rest.items].map((c) => c.citation_id)).toEqual(
        data.items.map((c) => c.citation_id),
      );
    },
    SLOW,
  );

  it(
    'lists every ruling a pasted ruling cites, and leaves out only the number its heading opens with',
    async () => {
      // A paragraph with no heading: the first number, mid-sentence with a prefix letter, is cited, not its own.
      const pasted =
        "ההלכה בעניין זה נקבעה בעע\"מ 3141/15 הוועדה המקומית נ' פלוני, ושבה ונקבעה בערר מס' 1618/12 " +
        'שבו נדחתה טענה דומה (ע"א 2718/99 אלמוני נ\' המדינה). ראו גם בר"מ 606/08.';
      const headed = `עמ"נ 5150-03-20 פלונית נ' הוועדה המקומית\n${pasted}`;
      const listed = async (text: string) => {
        const up = expectOk<{ document: { id: string } }>(
          await server().call('researcher', 'library_add', { text }),
        );
        await drainAll(server());
        const data = expectOk<Data>(
          await server().call('writer', 'citation_list', { document_id: up.document.id }),
        );
        return data.items.map((c) => c.key);
      };
      const cited = ['עע"מ 3141/15', 'ערר 1618/12', 'ע"א 2718/99', 'בר"מ 606/08'];
      expect(await listed(pasted)).toEqual(cited);
      expect(await listed(headed)).toEqual(cited);
    },
    SLOW,
  );

  it(
    'does not reach the citations of a deleted case’s document',
    async () => {
      const db = server().db.db;
      const caseId = await seedCase(db);
      const doc = await seedDocument(db, { corpus: 'case', caseId, bytes: textBytes('ראו ע"א 1108/97.') });
      expectOk(
        await server().call('researcher', 'citation_extract', { document_id: doc.id, wait_ms: 10_000 }),
      );
      expect(
        expectOk<Data>(await server().call('writer', 'citation_list', { document_id: doc.id })).items,
      ).toHaveLength(1);
      await deleteCase(db, caseId);
      expect(errorCode(await server().call('writer', 'citation_list', { document_id: doc.id }))).toBe(
        'not_found',
      );
      expect(errorCode(await server().call('writer', 'citation_list', { document_id: 'x' }))).toBe(
        'invalid_args',
      );
    },
    SLOW,
  );
});

deniedPrecedent('citation_list', 'analyst', (s) => ({ document_id: s.I01 }), true);
