// block_write and block_list: versions kept, a repeat of the current content is a replay, an older content
// again is a new version; what a block answers is checked against the case; the order of the decision;
// refusals; a deleted or decided case; 20 identical calls at once; no grant.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { cases } from '../../../src/db/schema/cases.ts';
import { draftBlocks } from '../../../src/db/schema/drafting.ts';
import {
  ALL_STACKS,
  DB_STACKS,
  deleteCase,
  deniedTo,
  forEachStack,
  twentyAtOnce,
} from '../../harness/analysis.ts';
import { seedCase } from '../../harness/documents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { draftingCase, fullBlocks } from './_drafting.ts';

interface Written {
  blocks: { key: string; kind: string; version: number; created: boolean }[];
}
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

forEachStack('block_write and block_list', DB_STACKS, (server) => {
  it('writes a whole decision in one call and lists it in the decision’s order', async () => {
    const s = server();
    const c = await draftingCase(s);
    const blocks = fullBlocks(c);
    // Written out of order: the list still reads header … signature, discussions in the order first written.
    const shuffled = [...blocks].reverse();
    const written = expectOk<Written>(
      await s.call('writer', 'block_write', { case_id: c.caseId, blocks: shuffled }),
    );
    expect(written.blocks.every((b) => b.created && b.version === 1)).toBe(true);
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
    // The case moved on to drafting.
    const [row] = await s.db.db.select().from(cases).where(eq(cases.id, c.caseId));
    expect(row?.status).toBe('drafting');
    // Paged.
    const first = expectOk<Listed>(await s.call('qa', 'block_list', { case_id: c.caseId, limit: 4 }));
    expect(first.items).toHaveLength(4);
    const second = expectOk<Listed>(
      await s.call('qa', 'block_list', { case_id: c.caseId, limit: 10, cursor: first.next_cursor }),
    );
    expect([...first.items, ...second.items].map((b) => b.key)).toEqual(listed.items.map((b) => b.key));
    expect(second.next_cursor).toBeNull();
  });

  it('keeps every version; the current content again is a replay; an older content again is a new version', async () => {
    const s = server();
    const caseId = await seedCase(s.db.db);
    const write = (text: string) =>
      s.call('writer', 'block_write', { case_id: caseId, blocks: [{ kind: 'background', text }] });
    expect(expectOk<Written>(await write('א')).blocks[0]).toMatchObject({ version: 1, created: true });
    expect(expectOk<Written>(await write('ב')).blocks[0]).toMatchObject({ version: 2, created: true });
    const again = expectOk<Written>(await write('ב'));
    expect(again.blocks[0]).toMatchObject({ version: 2, created: false });
    expect(expectOk<Written>(await write('א')).blocks[0]).toMatchObject({ version: 3, created: true });
    const rows = await s.db.db.select().from(draftBlocks).where(eq(draftBlocks.caseId, caseId));
    expect(rows.map((r) => [r.version, r.text]).sort()).toEqual([
      [1, 'א'],
      [2, 'ב'],
      [3, 'א'],
    ]);
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

  it('refuses keys that clash, titles outside discussions, and claims or arguments of another case; nothing is written', async () => {
    const s = server();
    const c = await draftingCase(s);
    const other = await seedCase(s.db.db);
    const refuse = async (blocks: unknown[], path: string, caseId = c.caseId) => {
      const res = await s.call('writer', 'block_write', { case_id: caseId, blocks });
      expect(errorCode(res)).toBe('invalid_args');
      expect(JSON.stringify(res.ok ? null : res.error.details)).toContain(path);
    };
    await refuse(
      [
        { kind: 'outcome', text: 'א' },
        { kind: 'outcome', text: 'ב' },
      ],
      'blocks.1.key',
    );
    await refuse([{ kind: 'outcome', key: 'discussion:x', text: 'א' }], 'blocks.0.key');
    await refuse([{ kind: 'discussion', key: 'plan', text: 'א' }], 'blocks.0.key');
    await refuse([{ kind: 'outcome', title: 'כותרת', text: 'א' }], 'blocks.0.title');
    await refuse(
      [{ kind: 'appellant_claims', text: 'א', claim_ids: c.appellantClaims }],
      'blocks.0.claim_ids',
      other,
    );
    await refuse(
      [{ kind: 'discussion', text: 'א', argument_ids: [crypto.randomUUID()] }],
      'blocks.0.argument_ids',
    );
    // A valid block beside a bad one: the transaction writes neither.
    await refuse(
      [
        { kind: 'background', text: 'רקע' },
        { kind: 'appellant_claims', text: 'א', claim_ids: [crypto.randomUUID()] },
      ],
      'blocks.1.claim_ids',
    );
    expect(await s.db.db.select().from(draftBlocks).where(eq(draftBlocks.caseId, c.caseId))).toEqual([]);
    expect(await s.db.db.select().from(draftBlocks).where(eq(draftBlocks.caseId, other))).toEqual([]);
  });

  it('a decided case’s draft is closed (invalid_state); a deleted case is not_found for both tools', async () => {
    const s = server();
    const decided = await seedCase(s.db.db);
    await s.db.db.update(cases).set({ status: 'decided' }).where(eq(cases.id, decided));
    const closed = await s.call('writer', 'block_write', {
      case_id: decided,
      blocks: [{ kind: 'outcome', text: 'א' }],
    });
    expect(errorCode(closed)).toBe('invalid_state');
    const gone = await seedCase(s.db.db);
    expectOk(
      await s.call('writer', 'block_write', { case_id: gone, blocks: [{ kind: 'outcome', text: 'א' }] }),
    );
    await deleteCase(s.db.db, gone);
    expect(
      errorCode(
        await s.call('writer', 'block_write', { case_id: gone, blocks: [{ kind: 'outcome', text: 'ב' }] }),
      ),
    ).toBe('not_found');
    expect(errorCode(await s.call('writer', 'block_list', { case_id: gone }))).toBe('not_found');
  });
});

forEachStack('block_write at once', ALL_STACKS, (server) => {
  it('20 identical calls at once write one version', async () => {
    const s = server();
    const caseId = await seedCase(s.db.db);
    const args = {
      case_id: caseId,
      blocks: [
        { kind: 'background', text: 'רקע עובדתי' },
        { kind: 'outcome', text: 'הערר נדחה.' },
      ],
    };
    const answers = await twentyAtOnce(s, 'block_write', args, ['writer', 'ceo']);
    for (const a of answers) expect(expectOk<Written>(a).blocks.map((b) => b.version)).toEqual([1, 1]);
    const rows = await s.db.db.select().from(draftBlocks).where(eq(draftBlocks.caseId, caseId));
    expect(rows).toHaveLength(2);
  });
});

deniedTo('block_write', 'qa', (c) => ({ case_id: c.caseId, blocks: [{ kind: 'outcome', text: 'א' }] }));
deniedTo('block_list', 'qa', (c) => ({ case_id: c.caseId }), true);
