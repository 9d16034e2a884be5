// block_write: versions kept, a repeat of the current content is a replay, an older content again is a new
// version; what a block answers is checked against the case; refusals; a deleted or decided case; 20
// identical calls at once; no grant. (What block_list shows of the written blocks: block_list.test.ts.)
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

forEachStack('block_write', DB_STACKS, (server) => {
  it('writes a whole decision in one call, each block a first version, and moves the case to drafting', async () => {
    const s = server();
    const c = await draftingCase(s);
    const blocks = fullBlocks(c);
    const written = expectOk<Written>(await s.call('writer', 'block_write', { case_id: c.caseId, blocks }));
    expect(written.blocks.every((b) => b.created && b.version === 1)).toBe(true);
    const rows = await s.db.db.select().from(draftBlocks).where(eq(draftBlocks.caseId, c.caseId));
    expect(rows).toHaveLength(blocks.length);
    // The case moved on to drafting.
    const [row] = await s.db.db.select().from(cases).where(eq(cases.id, c.caseId));
    expect(row?.status).toBe('drafting');
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

  it('a decided case’s draft is closed (invalid_state); a deleted case is not_found', async () => {
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
