// direction_list: in the order proposed, filtered by status, paged; empty for a case without directions;
// unknown and deleted cases; no grant.
import { expect, it } from 'vitest';
import { DB_STACKS, deleteCase, deniedTo, forEachStack } from '../../harness/analysis.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { type Approved, approve, caseWithArguments, propose } from './_directions.ts';

type Listed = { items: Approved['direction'][]; limit: number; next_cursor: string | null };

forEachStack('direction_list', DB_STACKS, (server) => {
  const list = (args: Record<string, unknown>) => server().call('qa', 'direction_list', args);

  it('lists in the order proposed, by status, page by page', async () => {
    const s = server();
    const { caseId } = await caseWithArguments(s.db.db);
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await propose(s, caseId));
    expectOk(await approve(s, made[2]?.id ?? ''));
    const p1 = expectOk<Listed>(await list({ case_id: caseId, limit: 3 }));
    expect(p1.items.map((d) => d.id)).toEqual(made.slice(0, 3).map((d) => d.id));
    const p2 = expectOk<Listed>(await list({ case_id: caseId, limit: 3, cursor: p1.next_cursor }));
    expect(p2.items.map((d) => d.id)).toEqual(made.slice(3).map((d) => d.id));
    expect(p2.next_cursor).toBeNull();
    const approved = expectOk<Listed>(await list({ case_id: caseId, status: 'approved' }));
    expect(approved.items.map((d) => d.id)).toEqual([made[2]?.id]);
    expect(errorCode(await list({ case_id: caseId, cursor: p1.next_cursor, status: 'approved' }))).toBe(
      'invalid_args',
    );
  });

  it('is empty for a case without directions; unknown and deleted cases are not_found', async () => {
    const s = server();
    const { caseId } = await caseWithArguments(s.db.db);
    const env = await list({ case_id: caseId });
    expect(env).toMatchObject({ ok: true, status: 'empty', data: { items: [] } });
    expect(errorCode(await list({ case_id: crypto.randomUUID() }))).toBe('not_found');
    await propose(s, caseId);
    await deleteCase(s.db.db, caseId);
    expect(errorCode(await list({ case_id: caseId }))).toBe('not_found');
  });
});

deniedTo('direction_list', 'researcher', (c) => ({ case_id: c.caseId }));
