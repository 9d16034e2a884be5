// feedback_record: a remark about a case or drafting in general, on a kind of block or the whole; the same
// remark again is the same row (durably too), the same words written otherwise are idempotency_key_reuse;
// unknown and deleted cases; 20 identical calls at once; no grant.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { feedback_record } from '../../../functions/feedback/feedback_record.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { chairFeedback } from '../../../src/db/schema/review.ts';
import { ALL_STACKS, deleteCase, deniedTo, forEachStack, twentyAtOnce } from '../../harness/analysis.ts';
import { seedCase } from '../../harness/documents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { forgetRequest } from '../direction/_forget.ts';

type Data = ToolData<typeof feedback_record>;

forEachStack('feedback_record', ALL_STACKS, (server) => {
  const record = (args: Record<string, unknown>) => server().call('ceo', 'feedback_record', args);

  it('records remarks about a case and in general; the same remark again is the same one', async () => {
    const db = server().db.db;
    const caseId = await seedCase(db);
    const args = { case_id: caseId, block_kind: 'discussion', kind: 'style', text: 'יש לקצר את הדיון.' };
    const first = expectOk<Data>(await record(args));
    expect(first).toMatchObject({
      created: true,
      feedback: {
        case_id: caseId,
        block_kind: 'discussion',
        kind: 'style',
        text: args.text,
      },
    });
    expect(await record(args)).toMatchObject({ ok: true, replayed: true });
    await forgetRequest(server(), 'ceo', feedback_record, args);
    expect(expectOk<Data>(await record(args))).toMatchObject({
      created: false,
      feedback: { id: first.feedback.id },
    });
    // The same words written otherwise: the same remark, refused rather than silently merged.
    const reworded = await record({ ...args, text: 'יש  לקצר את הדיון' });
    expect(errorCode(reworded)).toBe('idempotency_key_reuse');
    const general = expectOk<Data>(await record({ kind: 'citation', text: 'לציין תמיד "פורסם בנבו".' }));
    expect(general.feedback).toMatchObject({ case_id: null, block_kind: null });
    expect(general.feedback.id).not.toBe(first.feedback.id);
    // The same words about another kind of block are another remark.
    expect(expectOk<Data>(await record({ ...args, block_kind: 'outcome' })).created).toBe(true);
  });

  it('refuses unknown kinds, blank text and unknown or deleted cases', async () => {
    const db = server().db.db;
    const caseId = await seedCase(db);
    for (const args of [
      { kind: 'tone', text: 'x' },
      { kind: 'style', block_kind: 'preamble', text: 'x' },
      { kind: 'style', text: '   ' },
      { kind: 'style', text: '...' },
    ]) {
      expect(errorCode(await record(args)), JSON.stringify(args)).toBe('invalid_args');
    }
    expect(errorCode(await record({ case_id: crypto.randomUUID(), kind: 'style', text: 'x' }))).toBe(
      'not_found',
    );
    await deleteCase(db, caseId);
    expect(errorCode(await record({ case_id: caseId, kind: 'style', text: 'x' }))).toBe('not_found');
    expect(await db.select().from(chairFeedback).where(eq(chairFeedback.caseId, caseId))).toEqual([]);
  });

  it('20 identical calls at once record one remark', async () => {
    const db = server().db.db;
    const caseId = await seedCase(db);
    const answers = await twentyAtOnce(
      server(),
      'feedback_record',
      { case_id: caseId, kind: 'structure', text: 'סוף דבר לפני ההוצאות' },
      ['ceo'],
    );
    expect(new Set(answers.map((a) => expectOk<Data>(a).feedback.id)).size).toBe(1);
    expect(await db.select().from(chairFeedback).where(eq(chairFeedback.caseId, caseId))).toHaveLength(1);
  });
});

deniedTo('feedback_record', 'writer', () => ({ kind: 'style', text: 'x' }));
