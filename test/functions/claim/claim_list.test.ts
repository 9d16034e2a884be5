// claim_list: the case's claims in order with party, status, decision and provenance; filters; paging; the
// refusals; a deleted case; 20 identical reads at once; a caller without the grant.
import { expect, it } from 'vitest';
import { DB_STACKS, deleteCase, deniedTo, forEachStack, twentyAtOnce } from '../../harness/analysis.ts';
import { seedCase } from '../../harness/documents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { type Claims, caseWithClaims, nth, recordAs } from './_claims.ts';

forEachStack('claim_list', DB_STACKS, (server) => {
  const list = (args: Record<string, unknown>, agent: 'qa' | 'writer' | 'ceo' = 'qa') =>
    server().call(agent, 'claim_list', args);

  it('lists the claims in order with provenance, filtered by party, status and document', async () => {
    const { caseId, docs, claims } = await caseWithClaims(server(), {
      names: ['appeal', 'response', 'interim_decision'],
    });
    expect(claims).toHaveLength(14);
    const all = expectOk<Claims>(await list({ case_id: caseId, limit: 200 }));
    expect(all.items).toEqual(claims);
    const first = nth(all.items, 0);
    expect(first).toMatchObject({ status: 'candidate', decision: null, wording: null, merged_into: null });
    expect(first.source.extractor_version).toBe('claims@2');
    const third = expectOk<Claims>(await list({ case_id: caseId, party: 'third_party' }));
    expect(third.items.map((c) => c.source.document_id)).toEqual([docs.interim_decision]);
    const response = expectOk<Claims>(await list({ case_id: caseId, document_id: docs.response }));
    expect(response.items.map((c) => [c.label, c.kind])).toEqual([
      ['3', 'claim'],
      ['4', 'claim'],
      ['5', 'claim'],
      ['6', 'relief'],
    ]);
    expectOk(
      await recordAs(server(), { case_id: caseId, action: 'reject', claim_id: first.id, rationale: 'רקע' }),
    );
    const rejected = expectOk<Claims>(await list({ case_id: caseId, status: 'rejected' }));
    expect(rejected.items).toHaveLength(1);
    expect(rejected.items[0]?.decision).toMatchObject({ by: 'analyst', reason: 'רקע' });
    const candidates = expectOk<Claims>(await list({ case_id: caseId, status: 'candidate', limit: 200 }));
    expect(candidates.items).toHaveLength(13);
  });

  it('pages in order without repeats; identical reads at once agree', async () => {
    const { caseId, claims } = await caseWithClaims(server());
    const seen: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page = expectOk<Claims>(await list({ case_id: caseId, limit: 3, ...(cursor ? { cursor } : {}) }));
      seen.push(...page.items.map((c) => c.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(claims.map((c) => c.id));
    const reads = await twentyAtOnce(server(), 'claim_list', { case_id: caseId, limit: 200 }, [
      'qa',
      'writer',
    ]);
    for (const r of reads) expect(expectOk<Claims>(r).items).toEqual(claims);
  });

  it('is empty before extraction; refuses bad filters; not_found for an unknown or deleted case', async () => {
    const db = server().db.db;
    const fresh = await seedCase(db);
    expect((await list({ case_id: fresh })).status).toBe('empty');
    expect(errorCode(await list({ case_id: fresh, status: 'approved' }))).toBe('invalid_args');
    expect(errorCode(await list({ case_id: fresh, party: 'court' }))).toBe('invalid_args');
    expect(errorCode(await list({}))).toBe('invalid_args');
    expect(errorCode(await list({ case_id: crypto.randomUUID() }))).toBe('not_found');
    const { caseId } = await caseWithClaims(server());
    await deleteCase(db, caseId);
    expect(errorCode(await list({ case_id: caseId }))).toBe('not_found');
  });
});

deniedTo('claim_list', 'qa', (c) => ({ case_id: c.caseId }), true);
