// direction_review: the owner declines a proposed direction from the console (called here through the kernel
// as the owner principal): it stays listed as rejected with who and why, waits for no one, and a later
// approval clears the rejection; an approved direction cannot be declined (invalid_state); a repeat changes
// nothing; an unknown or deleted case's direction is not_found; no agent is granted it.
import { expect, it } from 'vitest';
import type { direction_review } from '../../../functions/direction/direction_review.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { DB_STACKS, deleteCase, forEachStack } from '../../harness/analysis.ts';
import { callAsOwner } from '../../harness/owner.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { type Approved, approve, caseWithArguments, propose } from './_directions.ts';

type Rejected = ToolData<typeof direction_review>;

forEachStack('direction_review', DB_STACKS, (server) => {
  const reject = (direction_id: string, reason = 'הנימוק אינו עונה על טענות המשיבה') =>
    callAsOwner(server(), 'dana', 'direction_review', { direction_id, reason });

  it('declines a proposed direction: listed as rejected with who and why; a repeat answers as the first', async () => {
    const s = server();
    const { caseId } = await caseWithArguments(s.db.db);
    const a = await propose(s, caseId);
    const first = expectOk<Rejected>(await reject(a.id));
    expect(first).toMatchObject({
      created: true,
      direction: {
        id: a.id,
        status: 'rejected',
        rejected: { by: 'owner:dana', reason: 'הנימוק אינו עונה על טענות המשיבה' },
      },
    });
    // The same call again answers as the first; another reason for the same direction is another call.
    expect(expectOk<Rejected>(await reject(a.id))).toMatchObject({
      direction: { status: 'rejected', rejected: { reason: 'הנימוק אינו עונה על טענות המשיבה' } },
    });
    expect(errorCode(await reject(a.id, 'שוב'))).toBe('idempotency_key_reuse');
    const listed = expectOk<{ items: Approved['direction'][] }>(
      await s.call('writer', 'direction_list', { case_id: caseId }),
    );
    expect(listed.items.map((d) => [d.id, d.status])).toEqual([[a.id, 'rejected']]);
    // The owner may change her mind: approving it clears the rejection.
    const approved = expectOk<Approved>(await approve(s, a.id));
    expect(approved.direction).toMatchObject({ status: 'approved', rejected: null });
  });

  it('refuses an approved direction (invalid_state, naming direction_approve), and an unknown one', async () => {
    const s = server();
    const { caseId } = await caseWithArguments(s.db.db);
    const a = await propose(s, caseId);
    expectOk(await approve(s, a.id));
    const refused = await reject(a.id);
    expect(errorCode(refused)).toBe('invalid_state');
    expect(refused.ok ? '' : refused.error.hint).toMatch(/direction_approve/);
    expect(errorCode(await reject(crypto.randomUUID()))).toBe('not_found');
  });

  it('a direction of a deleted case is not_found', async () => {
    const s = server();
    const { caseId } = await caseWithArguments(s.db.db);
    const a = await propose(s, caseId);
    await deleteCase(s.db.db, caseId);
    expect(errorCode(await reject(a.id))).toBe('not_found');
  });

  it('is granted to no agent: the ceo gets tool_not_granted', async () => {
    const s = server();
    const { caseId } = await caseWithArguments(s.db.db);
    const a = await propose(s, caseId);
    expect(errorCode(await s.call('ceo', 'direction_review', { direction_id: a.id, reason: 'x' }))).toBe(
      'tool_not_granted',
    );
  });
});
