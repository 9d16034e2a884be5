// Only approved holdings are served as holdings: library_get and internal_decision_get carry a document's
// approved holdings (the owner's wording beside the extracted text), never the pending or rejected candidates.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { library_get } from '../../../functions/library/library_get.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { holdings } from '../../../src/db/schema/holdings.ts';
import { DB_STACKS, forEachStack } from '../../harness/analysis.ts';
import { expectOk } from '../../harness/server.ts';
import { extractHoldings, seedRuling } from './_halacha.ts';

/** Seeding and extraction through the queue: generous on a loaded machine. */
const SLOW = 120_000;

type Get = ToolData<typeof library_get>;

forEachStack('holdings served by the get tools', DB_STACKS, (server) => {
  it(
    'library_get and internal_decision_get serve only the approved holdings, in the approved wording',
    async () => {
      const s = server();
      const ruling = await seedRuling(s.db.db, 'library');
      const decision = await seedRuling(s.db.db, 'internal');
      await extractHoldings(s, ruling);
      await extractHoldings(s, decision);
      const ids = (
        await s.db.db.select().from(holdings).where(eq(holdings.documentId, ruling)).orderBy(holdings.seq)
      ).map((h) => h.id);
      const review = (args: Record<string, unknown>) =>
        s.call('ceo', 'halacha_review', { owner_ack: true, reason: 'החלטת היו״ר', ...args });
      // Nothing approved yet: nothing served.
      const before = expectOk<Get>(await s.call('qa', 'library_get', { document_id: ruling }));
      expect(before.items[0]?.holdings).toEqual([]);
      expectOk(await review({ halacha_id: ids[0], decision: 'approve', topic: 'הקלות' }));
      expectOk(await review({ halacha_id: ids[1], decision: 'edit', text: 'המבחן: פגיעה במטרות התכנית.' }));
      expectOk(await review({ halacha_id: ids[2], decision: 'reject' }));
      const after = expectOk<Get>(await s.call('qa', 'library_get', { document_id: ruling }));
      const served = after.items[0]?.holdings ?? [];
      expect(served.map((h) => h.halacha_id)).toEqual([ids[0], ids[1]]);
      expect(served[0]).toMatchObject({ topic: 'הקלות', page: 1 });
      expect(served[0]?.text).toBe(served[0]?.extracted_text);
      expect(served[1]?.text).toBe('המבחן: פגיעה במטרות התכנית.');
      expect(served[1]?.extracted_text).toMatch(/המבחן הוא/);
      // The internal decision's candidates are all pending: none is served.
      const internal = expectOk<Get>(
        await s.call('writer', 'internal_decision_get', { document_id: decision }),
      );
      expect(internal.items[0]?.holdings).toEqual([]);
    },
    SLOW,
  );
});
