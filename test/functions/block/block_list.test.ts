// block_list: the blocks in the decision's order whatever order they were written in, with version, author,
// length, title and what each answers; the required blocks not yet written; paged; a deleted case; no grant.
import { expect, it } from 'vitest';
import { DB_STACKS, deleteCase, deniedTo, forEachStack } from '../../harness/analysis.ts';
import { seedCase } from '../../harness/documents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { draftingCase, fullBlocks } from './_drafting.ts';

interface Listed {
  items: {
    key: string;
    kind: string;
    version: number;
    versions: number;
    author: string;
    length: number;
    claim_ids: string[];
    citations: number;
    title: string | null;
  }[];
  missing: string[];
  next_cursor: string | null;
}

forEachStack('block_list', DB_STACKS, (server) => {
  it('lists a decision in the decision’s order, with author, title, citations and claims; paged', async () => {
    const s = server();
    const c = await draftingCase(s);
    // Written out of order: the list still reads header … signature, discussions in the order first written.
    const shuffled = [...fullBlocks(c)].reverse();
    expectOk(await s.call('writer', 'block_write', { case_id: c.caseId, blocks: shuffled }));
    const listed = expectOk<Listed>(await s.call('qa', 'block_list', { case_id: c.caseId }));
    expect(listed.items.map((b) => b.key)).toEqual([
      'header',
      'background',
      'appellant_claims',
      'respondent_claims',
      'discussion:reasonableness',
      'discussion:plan',
      'outcome',
      'costs',
      'signature',
    ]);
    expect(listed.missing).toEqual([]);
    const plan = listed.items.find((b) => b.key === 'discussion:plan');
    expect(plan).toMatchObject({
      author: 'writer',
      title: 'התכנית החלה',
      citations: 1,
      version: 1,
      versions: 1,
    });
    expect(plan?.claim_ids).toEqual([c.appellantClaims[0]]);
    expect(listed.items.find((b) => b.key === 'appellant_claims')?.claim_ids).toEqual(c.appellantClaims);
    // Paged.
    const first = expectOk<Listed>(await s.call('qa', 'block_list', { case_id: c.caseId, limit: 4 }));
    expect(first.items).toHaveLength(4);
    const second = expectOk<Listed>(
      await s.call('qa', 'block_list', { case_id: c.caseId, limit: 10, cursor: first.next_cursor }),
    );
    expect([...first.items, ...second.items].map((b) => b.key)).toEqual(listed.items.map((b) => b.key));
    expect(second.next_cursor).toBeNull();
  });

  it('shows the current version and how many there are, and names the required blocks not yet written', async () => {
    const s = server();
    const caseId = await seedCase(s.db.db);
    for (const text of ['א', 'ב', 'א']) {
      expectOk(
        await s.call('writer', 'block_write', { case_id: caseId, blocks: [{ kind: 'background', text }] }),
      );
    }
    const listed = expectOk<Listed>(await s.call('writer', 'block_list', { case_id: caseId }));
    expect(listed.items[0]).toMatchObject({ key: 'background', version: 3, versions: 3, length: 1 });
    expect(listed.missing).toEqual([
      'header',
      'appellant_claims',
      'respondent_claims',
      'discussion',
      'outcome',
      'signature',
    ]);
  });

  it('a deleted case is not_found', async () => {
    const s = server();
    const gone = await seedCase(s.db.db);
    expectOk(
      await s.call('writer', 'block_write', { case_id: gone, blocks: [{ kind: 'outcome', text: 'א' }] }),
    );
    await deleteCase(s.db.db, gone);
    expect(errorCode(await s.call('writer', 'block_list', { case_id: gone }))).toBe('not_found');
  });
});

deniedTo('block_list', 'qa', (c) => ({ case_id: c.caseId }), true);
