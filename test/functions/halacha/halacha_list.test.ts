// halacha_list: the pending queue oldest first by default, paged; filters by status, document and topic; an
// unknown document; and a caller without the grant (every agent holds it, so it is taken away).
import { expect, it } from 'vitest';
import type { halacha_list } from '../../../functions/halacha/halacha_list.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { DB_STACKS, deniedTo, forEachStack } from '../../harness/analysis.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { extractHoldings, RULING_HOLDINGS, seedRuling } from './_halacha.ts';

/** Seeding and extraction through the queue: generous on a loaded machine. */
const SLOW = 120_000;

type List = ToolData<typeof halacha_list>;

forEachStack('halacha_list', DB_STACKS, (server) => {
  const list = (args: Record<string, unknown> = {}, agent: 'qa' | 'ceo' | 'writer' = 'qa') =>
    server().call(agent, 'halacha_list', args);

  it(
    'serves the pending queue oldest first, paged without skipping or repeating',
    async () => {
      const s = server();
      const first = await seedRuling(s.db.db);
      await extractHoldings(s, first);
      const second = await seedRuling(s.db.db, 'internal');
      await extractHoldings(s, second);
      const seen: List['items'] = [];
      let cursor: string | null = null;
      do {
        const page: List = expectOk<List>(await list(cursor === null ? { limit: 2 } : { limit: 2, cursor }));
        seen.push(...page.items);
        cursor = page.next_cursor;
      } while (cursor !== null);
      const ours = seen.filter((h) => h.document.id === first || h.document.id === second);
      expect(ours).toHaveLength(2 * RULING_HOLDINGS.length);
      expect(new Set(seen.map((h) => h.halacha_id)).size).toBe(seen.length);
      expect(ours.slice(0, 3).every((h) => h.document.id === first)).toBe(true);
      expect(ours.every((h) => h.status === 'pending')).toBe(true);
      const h = ours[0];
      expect(h).toMatchObject({
        text: h?.extracted_text,
        approved_text: null,
        cue: 'הלכה היא',
        document: { corpus: 'library', number: 'עע"מ 9001/19' },
        provenance: { document_id: first, page: 1, extractor_version: 'holdings@2' },
      });
      expect(Date.parse(ours[0]?.created_at ?? '')).toBeLessThanOrEqual(
        Date.parse(ours[5]?.created_at ?? ''),
      );
    },
    SLOW,
  );

  it(
    'filters by document, status and topic; a page without items is empty',
    async () => {
      const s = server();
      const id = await seedRuling(s.db.db);
      await extractHoldings(s, id);
      const mine = expectOk<List>(await list({ document_id: id }));
      expect(mine.items.map((h) => h.cue)).toEqual(RULING_HOLDINGS.map((h) => h.cue));
      const target = mine.items[0]?.halacha_id;
      expectOk(
        await s.call('ceo', 'halacha_review', {
          halacha_id: target,
          decision: 'approve',
          topic: 'הקלות',
          owner_ack: true,
          reason: 'היו״ר אישר',
        }),
      );
      const approved = expectOk<List>(await list({ document_id: id, status: 'approved' }));
      expect(approved.items.map((h) => h.halacha_id)).toEqual([target]);
      expect(expectOk<List>(await list({ document_id: id })).items).toHaveLength(2);
      expect(expectOk<List>(await list({ document_id: id, status: 'all' })).items).toHaveLength(3);
      expect(expectOk<List>(await list({ topic: 'הקלות', status: 'all' })).items[0]?.halacha_id).toBe(target);
      const none = await list({ document_id: id, status: 'rejected' });
      expect(none).toMatchObject({ ok: true, status: 'empty' });
    },
    SLOW,
  );

  it(
    'refuses an unknown document (not_found) and a bad status (invalid_args)',
    async () => {
      expect(errorCode(await list({ document_id: crypto.randomUUID() }))).toBe('not_found');
      expect(errorCode(await list({ status: 'maybe' }))).toBe('invalid_args');
    },
    SLOW,
  );
});

deniedTo('halacha_list', 'qa', () => ({}), true);
