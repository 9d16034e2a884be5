// style_corpus_pending_list: style documents never enriched or enriched by an older segmenter version, oldest
// first, paged; enriched ones leave the list; a bad cursor; and a caller without the grant.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { style_corpus_pending_list } from '../../../functions/style/style_corpus_pending_list.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { styleEnrichments } from '../../../src/db/schema/holdings.ts';
import { DB_STACKS, deniedTo, forEachStack } from '../../harness/analysis.ts';
import { seedDocument, textBytes } from '../../harness/documents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';

/** Seeding and extraction through the queue: generous on a loaded machine. */
const SLOW = 120_000;

type List = ToolData<typeof style_corpus_pending_list>;

forEachStack('style_corpus_pending_list', DB_STACKS, (server) => {
  const list = (args: Record<string, unknown> = {}) =>
    server().call('writer', 'style_corpus_pending_list', args);
  const seedStyle = async () =>
    (
      await seedDocument(server().db.db, {
        corpus: 'style',
        caseId: null,
        bytes: textBytes(`החלטה\n1. הערר נדחה. ${crypto.randomUUID()}`),
      })
    ).id;
  const all = async () => {
    const out: List['items'] = [];
    let cursor: string | null = null;
    do {
      const page: List = expectOk<List>(await list(cursor === null ? { limit: 2 } : { limit: 2, cursor }));
      expect(page.current_version).toBe('style@1');
      out.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor !== null);
    return out;
  };

  it(
    'lists the style documents not enriched, oldest first; enriched ones leave; an older version returns',
    async () => {
      const a = await seedStyle();
      const b = await seedStyle();
      const c = await seedStyle();
      await seedDocument(server().db.db, {
        corpus: 'library',
        caseId: null,
        bytes: textBytes(`פסק דין ${crypto.randomUUID()}`),
      });
      const before = await all();
      expect(before.map((d) => d.document_id)).toEqual(expect.arrayContaining([a, b, c]));
      const ours = before.filter((d) => [a, b, c].includes(d.document_id));
      expect(ours.map((d) => d.document_id)).toEqual([a, b, c]);
      expect(ours[0]).toMatchObject({ status: 'ready', reason: 'not_enriched', enriched_version: null });
      expectOk(await server().call('researcher', 'style_corpus_enrich', { document_id: b, wait_ms: 10_000 }));
      expect((await all()).map((d) => d.document_id)).not.toContain(b);
      await server()
        .db.db.update(styleEnrichments)
        .set({ segmenterVersion: 'style@0' })
        .where(eq(styleEnrichments.documentId, b));
      expect((await all()).find((d) => d.document_id === b)).toMatchObject({
        reason: 'older_version',
        enriched_version: 'style@0',
      });
    },
    SLOW,
  );

  it(
    'refuses a cursor it did not issue (invalid_args)',
    async () => {
      expect(errorCode(await list({ cursor: 'not-a-cursor' }))).toBe('invalid_args');
    },
    SLOW,
  );
});

deniedTo('style_corpus_pending_list', 'writer', () => ({}), true);
