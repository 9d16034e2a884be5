// halacha_review: the owner's decision on a candidate holding — approve, reject, edit (the extracted text kept
// beside the wording) — behind the owner gate in both modes, audited with the reason; a re-run of the extractor
// leaves reviewed holdings alone; the refusals; 20 identical calls at once; a caller without the grant.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { halacha_review } from '../../../functions/halacha/halacha_review.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { holdingReviews, holdings } from '../../../src/db/schema/holdings.ts';
import { kvEntries } from '../../../src/db/schema/kv_entries.ts';
import { holdingExtractor } from '../../../src/halacha/extractor.ts';
import { approvalIdOf, forEachApprovalStack } from '../../contract/_approvals.ts';
import { ALL_STACKS, DB_STACKS, deniedTo, forEachStack, twentyAtOnce } from '../../harness/analysis.ts';
import { callAsOwner } from '../../harness/owner.ts';
import { rerun } from '../../harness/rerun.ts';
import { auditMark } from '../../harness/rows.ts';
import { errorCode, expectOk, type TestServer } from '../../harness/server.ts';
import { extractHoldings, seedRuling } from './_halacha.ts';

/** Seeding and extraction through the queue: generous on a loaded machine. */
const SLOW = 120_000;

type Review = ToolData<typeof halacha_review>;

/** A ruling's candidate holdings, extracted: their ids in order. */
async function candidates(s: TestServer): Promise<{ documentId: string; ids: string[] }> {
  const documentId = await seedRuling(s.db.db);
  await extractHoldings(s, documentId);
  const rows = await s.db.db.select().from(holdings).where(eq(holdings.documentId, documentId));
  return { documentId, ids: rows.sort((a, b) => a.seq - b.seq).map((r) => r.id) };
}

const reviewsOf = (s: TestServer, id: string) =>
  s.db.db.select().from(holdingReviews).where(eq(holdingReviews.holdingId, id));

forEachStack('halacha_review', DB_STACKS, (server) => {
  const review = (args: Record<string, unknown>) =>
    server().call('ceo', 'halacha_review', { owner_ack: true, reason: 'היו״ר החליט', ...args });

  it(
    'approves, edits (the extracted text kept beside the wording) and rejects, each audited with its reason',
    async () => {
      const s = server();
      const { ids } = await candidates(s);
      const [a, b, c] = ids;
      const audit = await auditMark(s.db.db);
      const approved = expectOk<Review>(await review({ halacha_id: a, decision: 'approve', topic: 'הקלות' }));
      expect(approved).toMatchObject({
        created: true,
        halacha: { status: 'approved', topic: 'הקלות', approved_text: null, reviewed_by: 'ceo' },
      });
      expect(approved.halacha.review_reason).toBe('היו״ר החליט');
      const wording = 'הקלה אינה כלי לשינוי ייעוד; שינוי ייעוד טעון תכנית.';
      const edited = expectOk<Review>(await review({ halacha_id: b, decision: 'edit', text: wording }));
      expect(edited.halacha).toMatchObject({ status: 'approved', text: wording, approved_text: wording });
      expect(edited.halacha.extracted_text).toMatch(/טענה זו. המבחן הוא/);
      const rejected = expectOk<Review>(
        await review({ halacha_id: c, decision: 'reject', reason: 'אמרת אגב, לא הלכה' }),
      );
      expect(rejected.halacha).toMatchObject({ status: 'rejected', review_reason: 'אמרת אגב, לא הלכה' });
      const rows = await audit();
      expect(rows.map((r) => [r.tool, r.outcome, r.ownerAck, r.ownerReason])).toEqual([
        ['halacha_review', 'ok', true, 'היו״ר החליט'],
        ['halacha_review', 'ok', true, 'היו״ר החליט'],
        ['halacha_review', 'ok', true, 'אמרת אגב, לא הלכה'],
      ]);
      expect(await reviewsOf(s, c ?? '')).toMatchObject([
        { decision: 'reject', reason: 'אמרת אגב, לא הלכה', agent: 'ceo' },
      ]);
      // A re-run of the extractor leaves the reviewed holdings as they are.
      const before = await s.db.db
        .select()
        .from(holdings)
        .where(eq(holdings.id, b ?? ''));
      await rerun(s.db.db, holdingExtractor, before[0]?.documentId ?? '');
      expect(
        await s.db.db
          .select()
          .from(holdings)
          .where(eq(holdings.id, b ?? '')),
      ).toEqual(before);
    },
    SLOW,
  );

  it(
    'the same review again changes nothing (created false); another decision later is recorded too',
    async () => {
      const s = server();
      const { ids } = await candidates(s);
      const id = ids[0];
      expectOk(await review({ halacha_id: id, decision: 'approve' }));
      const replay = await review({ halacha_id: id, decision: 'approve' });
      expect(replay).toMatchObject({ ok: true, replayed: true });
      // The owner's reason is part of the call: the same key with another reason is another call.
      expect(errorCode(await review({ halacha_id: id, decision: 'approve', reason: 'שוב' }))).toBe(
        'idempotency_key_reuse',
      );
      // With the stored answers lost, the durable layer still knows the review.
      await s.db.db.delete(kvEntries);
      const again = expectOk<Review>(await review({ halacha_id: id, decision: 'approve' }));
      expect(again.created).toBe(false);
      expect(await reviewsOf(s, id ?? '')).toHaveLength(1);
      expectOk(await review({ halacha_id: id, decision: 'reject', reason: 'שקלנו שוב' }));
      expect(await reviewsOf(s, id ?? '')).toHaveLength(2);
    },
    SLOW,
  );

  it(
    'is owner-gated: without the owner’s ack or reason nothing changes',
    async () => {
      const s = server();
      const { ids } = await candidates(s);
      const id = ids[0];
      const bare = await s.call('ceo', 'halacha_review', { halacha_id: id, decision: 'approve' });
      expect(bare).toMatchObject({
        ok: false,
        error: { code: 'owner_gate_required', details: { missing: ['owner_ack: true', 'reason'] } },
      });
      const noReason = await s.call('ceo', 'halacha_review', {
        halacha_id: id,
        decision: 'approve',
        owner_ack: true,
      });
      expect(errorCode(noReason)).toBe('owner_gate_required');
      expect(await reviewsOf(s, id ?? '')).toHaveLength(0);
      const [row] = await s.db.db
        .select()
        .from(holdings)
        .where(eq(holdings.id, id ?? ''));
      expect(row?.status).toBe('pending');
    },
    SLOW,
  );

  it(
    'refuses an unknown holding (not_found) and a decision with the wrong fields (invalid_args)',
    async () => {
      const { ids } = await candidates(server());
      expect(errorCode(await review({ halacha_id: crypto.randomUUID(), decision: 'approve' }))).toBe(
        'not_found',
      );
      expect(errorCode(await review({ halacha_id: ids[0], decision: 'edit' }))).toBe('invalid_args');
      expect(errorCode(await review({ halacha_id: ids[0], decision: 'approve', text: 'נוסח' }))).toBe(
        'invalid_args',
      );
      expect(errorCode(await review({ halacha_id: ids[0], decision: 'maybe' }))).toBe('invalid_args');
      expect(await reviewsOf(server(), ids[0] ?? '')).toHaveLength(0);
    },
    SLOW,
  );
});

forEachStack('halacha_review under concurrency', ALL_STACKS, (server) => {
  it(
    '20 identical reviews at once: one review, one change',
    async () => {
      const s = server();
      const { ids } = await candidates(s);
      const args = {
        halacha_id: ids[0],
        decision: 'edit',
        text: 'נוסח מאושר',
        owner_ack: true,
        reason: 'כן',
      };
      const answers = await twentyAtOnce(s, 'halacha_review', args, ['ceo']);
      for (const a of answers) expectOk(a);
      expect(await reviewsOf(s, ids[0] ?? '')).toHaveLength(1);
      expect(answers.filter((a) => a.ok && (a.data as Review).created && a.replayed !== true)).toHaveLength(
        1,
      );
    },
    SLOW,
  );
});

forEachApprovalStack('halacha_review in approval mode', (env) => {
  it(
    'opens only with the owner’s approval of this very call, which records the owner and their reason',
    async () => {
      const { s } = env();
      const { ids } = await candidates(s);
      const args = { halacha_id: ids[0], decision: 'approve', topic: 'שיקול דעת' };
      const asked = await s.call('ceo', 'halacha_review', { ...args, reason: 'לאשר כהלכה?' });
      const approvalId = approvalIdOf(asked);
      expect(await reviewsOf(s, ids[0] ?? '')).toHaveLength(0);
      expect(errorCode(await s.call('ceo', 'halacha_review', { ...args, approval_id: approvalId }))).toBe(
        'approval_pending',
      );
      expectOk(
        await callAsOwner(s, 'dana', 'approval_review', {
          approval_id: approvalId,
          decision: 'approve',
          reason: 'זו הלכה מחייבת',
        }),
      );
      const done = expectOk<Review>(
        await s.call('ceo', 'halacha_review', { ...args, approval_id: approvalId }),
      );
      expect(done.halacha).toMatchObject({ status: 'approved', review_reason: 'זו הלכה מחייבת' });
      expect(await reviewsOf(s, ids[0] ?? '')).toMatchObject([{ reason: 'זו הלכה מחייבת', owner: 'dana' }]);
    },
    SLOW,
  );
});

deniedTo('halacha_review', 'researcher', () => ({
  halacha_id: crypto.randomUUID(),
  decision: 'approve',
  owner_ack: true,
  reason: 'x',
}));
