// argument_list: empty before a map exists (with the claims to group), the latest or a named version with its
// arguments, claims and provenance, paging over arguments; the refusals; a deleted case; 20 identical reads
// at once; a caller without the grant.
import { expect, it } from 'vitest';
import type { argument_list } from '../../../functions/argument/argument_list.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { DB_STACKS, deleteCase, deniedTo, forEachStack, twentyAtOnce } from '../../harness/analysis.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { caseWithClaims, nth } from '../claim/_claims.ts';

type Data = ToolData<typeof argument_list>;

forEachStack('argument_list', DB_STACKS, (server) => {
  const list = (args: Record<string, unknown>) => server().call('writer', 'argument_list', args);

  it('shows the latest map, or a named version, with each argument’s claims and the claims left out', async () => {
    const { caseId, claims } = await caseWithClaims(server());
    const before = await list({ case_id: caseId });
    expect(before.status).toBe('empty');
    expect(expectOk<Data>(before)).toMatchObject({
      version: null,
      items: [],
      unassigned_total: claims.length,
    });
    const a = nth(claims, 0);
    const b = nth(claims, 1);
    const c = nth(claims, 2);
    expectOk(
      await server().call('analyst', 'argument_aggregate', {
        case_id: caseId,
        arguments: [
          { title: 'שומה', party: 'appellant', claim_ids: [b.id, a.id], summary: 'טענות שמאיות' },
          { title: 'מס שבח', party: 'appellant', claim_ids: [c.id] },
        ],
      }),
    );
    expectOk(
      await server().call('analyst', 'argument_aggregate', {
        case_id: caseId,
        arguments: [{ title: 'הכול', party: 'appellant', claim_ids: [a.id, b.id, c.id] }],
      }),
    );
    const latest = expectOk<Data>(await list({ case_id: caseId }));
    expect(latest).toMatchObject({ version: 2, created_by: 'analyst', unassigned_total: claims.length - 3 });
    expect(latest.items.map((i) => i.title)).toEqual(['הכול']);
    const v1 = expectOk<Data>(await list({ case_id: caseId, version: 1 }));
    expect(v1.items.map((i) => [i.title, i.summary])).toEqual([
      ['שומה', 'טענות שמאיות'],
      ['מס שבח', null],
    ]);
    // Claims in the order the agent gave them, each with its provenance.
    expect(v1.items[0]?.claims.map((x) => x.id)).toEqual([b.id, a.id]);
    expect(v1.items[0]?.claims[0]?.source).toEqual(b.source);
    const page = expectOk<Data>(await list({ case_id: caseId, version: 1, limit: 1 }));
    expect(page.items.map((i) => i.title)).toEqual(['שומה']);
    const rest = expectOk<Data>(
      await list({ case_id: caseId, version: 1, limit: 1, cursor: page.next_cursor }),
    );
    expect(rest).toMatchObject({ next_cursor: null });
    expect(rest.items.map((i) => i.title)).toEqual(['מס שבח']);
    const reads = await twentyAtOnce(server(), 'argument_list', { case_id: caseId }, ['writer', 'qa']);
    for (const r of reads) expect(expectOk<Data>(r)).toEqual(latest);
  });

  it('refuses an unknown version or case, and a deleted case', async () => {
    const { caseId } = await caseWithClaims(server());
    expect(errorCode(await list({ case_id: caseId, version: 7 }))).toBe('not_found');
    expect(errorCode(await list({ case_id: caseId, version: 0 }))).toBe('invalid_args');
    expect(errorCode(await list({ case_id: crypto.randomUUID() }))).toBe('not_found');
    await deleteCase(server().db.db, caseId);
    expect(errorCode(await list({ case_id: caseId }))).toBe('not_found');
  });
});

deniedTo('argument_list', 'writer', (c) => ({ case_id: c.caseId }), true);
