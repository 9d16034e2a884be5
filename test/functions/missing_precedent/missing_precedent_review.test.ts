// missing_precedent_review: open missing precedents dismissed in bulk with one reason (by ids, or every open
// one of a case), who and why kept on each; closed ones left as they are and counted; the same call again is
// harmless; the refusals (neither or both selectors, an unknown id, a deleted case); 20 identical calls at
// once; a caller without the grant. And which documents open missing precedents by themselves: the filings,
// not an appraisal's citations.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { missing_precedent_review } from '../../../functions/missing_precedent/missing_precedent_review.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { missingPrecedents } from '../../../src/db/schema/precedents.ts';
import { ALL_STACKS, DB_STACKS, deleteCase, forEachStack, twentyAtOnce } from '../../harness/analysis.ts';
import { seedCase, seedDocument, textBytes } from '../../harness/documents.ts';
import { deniedPrecedent, recordMissingPrecedent } from '../../harness/precedents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';

const SLOW = 120_000;

type Data = ToolData<typeof missing_precedent_review>;

let n = 0;
/** A citation number no other test uses. */
const fresh = () => `עע"מ ${6100 + n++}/${10 + (Date.now() % 80)}`;

const record = recordMissingPrecedent;

forEachStack('missing_precedent_review', DB_STACKS, (server) => {
  const dismiss = (args: Record<string, unknown>) =>
    server().call('researcher', 'missing_precedent_review', args);

  it(
    'dismisses by ids and by case, keeps who and why, leaves closed ones and counts them',
    async () => {
      const s = server();
      const caseId = await seedCase(s.db.db);
      const [a, b, c] = [
        await record(s, fresh(), caseId),
        await record(s, fresh(), caseId),
        await record(s, fresh(), caseId),
      ];
      const other = await record(s, fresh());
      const byIds = expectOk<Data>(await dismiss({ missing_precedent_ids: [a, other], reason: 'אינו נחוץ' }));
      expect(byIds.dismissed.map((m) => m.missing_precedent_id).sort()).toEqual([a, other].sort());
      expect(byIds.dismissed[0]).toMatchObject({
        status: 'closed',
        resolution: 'dismissed',
        closed_by: 'researcher',
        reason: 'אינו נחוץ',
      });
      expect(byIds.already_closed).toBe(0);
      // The same call again is harmless: its first answer; in another order, nothing left to dismiss.
      const again = expectOk<Data>(await dismiss({ missing_precedent_ids: [a, other], reason: 'אינו נחוץ' }));
      expect(again.dismissed.map((m) => m.missing_precedent_id).sort()).toEqual([a, other].sort());
      const reordered = expectOk<Data>(
        await dismiss({ missing_precedent_ids: [other, a], reason: 'אינו נחוץ' }),
      );
      expect(reordered).toMatchObject({ dismissed: [], already_closed: 2 });
      // Every open one of the case: b and c; a was closed before and is left as it is.
      const byCase = expectOk<Data>(await dismiss({ case_id: caseId, reason: 'שומות השוואה בלבד' }));
      expect(byCase.dismissed.map((m) => m.missing_precedent_id).sort()).toEqual([b, c].sort());
      expect(byCase.remaining_open).toBe(0);
      const rows = await s.db.db.select().from(missingPrecedents).where(eq(missingPrecedents.caseId, caseId));
      expect(rows.map((r) => [r.status, r.reason]).sort()).toEqual(
        [
          ['closed', 'אינו נחוץ'],
          ['closed', 'שומות השוואה בלבד'],
          ['closed', 'שומות השוואה בלבד'],
        ].sort(),
      );
      // Closed ones given by id are counted, not dismissed again.
      const closed = expectOk<Data>(await dismiss({ missing_precedent_ids: [a, b], reason: 'שוב' }));
      expect(closed).toMatchObject({ dismissed: [], already_closed: 2 });
    },
    SLOW,
  );

  it(
    'refuses neither or both selectors, an unknown id (dismissing nothing), an unknown or deleted case',
    async () => {
      const s = server();
      const caseId = await seedCase(s.db.db);
      const id = await record(s, fresh(), caseId);
      expect(errorCode(await dismiss({ reason: 'אינו נחוץ' }))).toBe('invalid_args');
      expect(
        errorCode(await dismiss({ case_id: caseId, missing_precedent_ids: [id], reason: 'אינו נחוץ' })),
      ).toBe('invalid_args');
      expect(errorCode(await dismiss({ missing_precedent_ids: [id], reason: 'x' }))).toBe('invalid_args');
      expect(
        errorCode(await dismiss({ missing_precedent_ids: [id, crypto.randomUUID()], reason: 'אינו נחוץ' })),
      ).toBe('not_found');
      const [still] = await s.db.db.select().from(missingPrecedents).where(eq(missingPrecedents.id, id));
      expect(still?.status).toBe('open');
      expect(errorCode(await dismiss({ case_id: crypto.randomUUID(), reason: 'אינו נחוץ' }))).toBe(
        'not_found',
      );
      await deleteCase(s.db.db, caseId);
      expect(errorCode(await dismiss({ case_id: caseId, reason: 'אינו נחוץ' }))).toBe('not_found');
      expect(errorCode(await dismiss({ missing_precedent_ids: [id], reason: 'אינו נחוץ' }))).toBe(
        'not_found',
      );
    },
    SLOW,
  );

  it(
    'opens missing precedents for the appeal’s citations, not for those an appraisal lists',
    async () => {
      const s = server();
      const caseId = await seedCase(s.db.db);
      const cited = fresh();
      const listed = fresh();
      const doc = async (role: 'appeal' | 'deciding_appraisal', text: string) =>
        seedDocument(s.db.db, { corpus: 'case', caseId, role, bytes: textBytes(text) });
      const appeal = await doc('appeal', `כתב ערר\n1. כפי שנקבע ב${cited}, אין לחייב בהיטל.`);
      const appraisal = await doc('deciding_appraisal', `שומה מכרעת\nבעסקת השוואה נדונה ב${listed}.`);
      for (const d of [appeal, appraisal])
        expectOk(await s.call('researcher', 'citation_extract', { document_id: d.id, wait_ms: 10_000 }));
      const open = await s.db.db.select().from(missingPrecedents).where(eq(missingPrecedents.caseId, caseId));
      expect(open.map((m) => m.citation)).toEqual([expect.stringContaining(cited.slice(-7))]);
    },
    SLOW,
  );
});

forEachStack('missing_precedent_review at once', ALL_STACKS, (server) => {
  it(
    '20 identical calls dismiss them once',
    async () => {
      const s = server();
      const ids = [await record(s, fresh()), await record(s, fresh())];
      const answers = await twentyAtOnce(
        s,
        'missing_precedent_review',
        { missing_precedent_ids: ids, reason: 'אינו נחוץ' },
        ['researcher'],
      );
      for (const a of answers) expect(a.ok).toBe(true);
      const rows = await s.db.db.select().from(missingPrecedents);
      expect(rows.filter((r) => ids.includes(r.id)).map((r) => r.status)).toEqual(['closed', 'closed']);
      // Each answer is the one call's (both dismissed) or finds them closed by it: never dismissed twice.
      for (const a of answers) {
        const d = expectOk<Data>(a);
        expect(d.dismissed.length + d.already_closed).toBe(2);
      }
    },
    SLOW,
  );
});

deniedPrecedent('missing_precedent_review', 'analyst', () => ({
  missing_precedent_ids: [crypto.randomUUID()],
  reason: 'לא נחוץ',
}));
