// precedent_list: a case's precedents in order and by section; by citation (any written form, up to 20 numbers
// pasted) every live case the ruling is pinned to; a deleted case's precedents unreachable; the refusals; a
// caller without the grant.
import { expect, it } from 'vitest';
import type { precedent_list } from '../../../functions/precedent/precedent_list.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { DB_STACKS, deleteCase, deniedTo, forEachStack } from '../../harness/analysis.ts';
import { seedCase } from '../../harness/documents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { attach, QUOTE, seedQuoted } from './_precedent.ts';

/** Seeding and extraction through the queue: generous on a loaded machine. */
const SLOW = 120_000;

type List = ToolData<typeof precedent_list>;

forEachStack('precedent_list', DB_STACKS, (server) => {
  const list = (args: Record<string, unknown>) => server().call('qa', 'precedent_list', args);

  it(
    'lists a case’s precedents in order, by section; by citation every case the ruling is pinned to',
    async () => {
      const s = server();
      const one = await seedCase(s.db.db);
      const two = await seedCase(s.db.db);
      const gone = await seedCase(s.db.db);
      const number = `עע"מ ${1000 + Math.floor(Math.random() * 8000)}/19`;
      const a = await attach(s, { case_id: one, section: 'discussion', citation: number, quote: QUOTE });
      const b = await attach(s, {
        case_id: one,
        section: 'background',
        citation: 'ע"א 1108/97',
        quote: 'עובדה',
      });
      const c = await attach(s, {
        case_id: two,
        section: 'discussion',
        citation: `${number} פלוני`,
        quote: 'אחר',
      });
      await attach(s, { case_id: gone, section: 'discussion', citation: number, quote: QUOTE });
      await deleteCase(s.db.db, gone);
      const mine = expectOk<List>(await list({ case_id: one }));
      expect(mine.items.map((p) => p.precedent_id)).toEqual([
        a.precedent.precedent_id,
        b.precedent.precedent_id,
      ]);
      const discussion = expectOk<List>(await list({ case_id: one, section: 'Discussion' }));
      expect(discussion.items.map((p) => p.precedent_id)).toEqual([a.precedent.precedent_id]);
      // By citation, in another quote-mark form: the live cases it is pinned to, not the deleted one.
      const linked = expectOk<List>(await list({ citation: number.replace('"', '״') }));
      expect(linked.items.map((p) => p.case_id)).toEqual([one, two]);
      expect(linked.items[1]?.precedent_id).toBe(c.precedent.precedent_id);
      // Numbers pasted together, as lawyers do.
      const pasted = expectOk<List>(await list({ citation: `${number}; ע״א 1108/97`, case_id: one }));
      expect(pasted.items).toHaveLength(2);
      expect(await list({ citation: 'בג"ץ 1/99' })).toMatchObject({ ok: true, status: 'empty' });
      expect(linked.items.every((p) => p.cited_document_id === null)).toBe(true);
    },
    SLOW,
  );

  it(
    'names the library document of the cited number once the library has it',
    async () => {
      const s = server();
      const caseId = await seedCase(s.db.db);
      const documentId = await seedQuoted(s.db.db);
      expectOk(
        await s.call('researcher', 'library_metadata_extract', { document_id: documentId, wait_ms: 10_000 }),
      );
      await attach(s, { case_id: caseId, section: 'discussion', citation: 'עע״מ 9001/2019', quote: QUOTE });
      const listed = expectOk<List>(await list({ case_id: caseId }));
      expect(listed.items[0]).toMatchObject({ document_id: null, cited_document_id: documentId });
    },
    SLOW,
  );

  it(
    'refuses: neither case nor citation, more than 20 numbers (invalid_args); a deleted case (not_found)',
    async () => {
      expect(errorCode(await list({}))).toBe('invalid_args');
      const many = Array.from({ length: 21 }, (_, i) => `ע"א ${i + 1}/20`).join(', ');
      expect(errorCode(await list({ citation: many }))).toBe('invalid_args');
      const gone = await seedCase(server().db.db);
      await deleteCase(server().db.db, gone);
      expect(errorCode(await list({ case_id: gone }))).toBe('not_found');
      expect(errorCode(await list({ case_id: crypto.randomUUID() }))).toBe('not_found');
    },
    SLOW,
  );
});

deniedTo('precedent_list', 'qa', (c) => ({ case_id: c.caseId }), true);
