// feedback_list: oldest first, filtered by case, general, kind of block and kind; paged; remarks about a
// deleted case unreachable; unknown case; no grant.
import { expect, it } from 'vitest';
import type { feedback_list } from '../../../functions/feedback/feedback_list.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { DB_STACKS, deleteCase, deniedTo, forEachStack } from '../../harness/analysis.ts';
import { seedCase } from '../../harness/documents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';

type Data = ToolData<typeof feedback_list>;

forEachStack('feedback_list', DB_STACKS, (server) => {
  const list = (args: Record<string, unknown>) => server().call('writer', 'feedback_list', args);
  const record = (args: Record<string, unknown>) => server().call('ceo', 'feedback_record', args);

  it('filters by case, general remarks, kind of block and kind, and pages', async () => {
    const db = server().db.db;
    const [a, b] = [await seedCase(db), await seedCase(db)];
    const tag = crypto.randomUUID().slice(0, 6);
    const made = [
      { case_id: a, block_kind: 'discussion', kind: 'style', text: `${tag} קצר יותר` },
      { case_id: a, block_kind: 'outcome', kind: 'substance', text: `${tag} לנמק` },
      { case_id: b, block_kind: 'discussion', kind: 'citation', text: `${tag} ציטוט מלא` },
      { block_kind: 'discussion', kind: 'style', text: `${tag} כללי` },
    ];
    const ids = [];
    for (const m of made) ids.push(expectOk<{ feedback: { id: string } }>(await record(m)).feedback.id);
    expect(expectOk<Data>(await list({ case_id: a })).items.map((f) => f.id)).toEqual([ids[0], ids[1]]);
    const discussion = expectOk<Data>(await list({ block_kind: 'discussion', limit: 200 })).items.filter(
      (f) => f.text.startsWith(tag),
    );
    expect(discussion.map((f) => f.id)).toEqual([ids[0], ids[2], ids[3]]);
    const general = expectOk<Data>(await list({ general: true, limit: 200 })).items.map((f) => f.id);
    expect(general).toContain(ids[3]);
    expect(general).not.toContain(ids[0]);
    expect(expectOk<Data>(await list({ case_id: a, kind: 'substance' })).items.map((f) => f.id)).toEqual([
      ids[1],
    ]);
    const p1 = expectOk<Data>(await list({ case_id: a, limit: 1 }));
    const p2 = expectOk<Data>(await list({ case_id: a, limit: 1, cursor: p1.next_cursor }));
    expect([...p1.items, ...p2.items].map((f) => f.id)).toEqual([ids[0], ids[1]]);
    expect(p2.next_cursor).toBeNull();
    expect(errorCode(await list({ case_id: a, general: true }))).toBe('invalid_args');
    // A deleted case and its remarks are unreachable; remarks in general stay.
    await deleteCase(db, a);
    expect(errorCode(await list({ case_id: a }))).toBe('not_found');
    const after = expectOk<Data>(await list({ block_kind: 'discussion', limit: 200 })).items.map((f) => f.id);
    expect(after).not.toContain(ids[0]);
    expect(after).toContain(ids[3]);
  });

  it('is empty when nothing matches; an unknown case is not_found', async () => {
    const caseId = await seedCase(server().db.db);
    expect(await list({ case_id: caseId })).toMatchObject({ ok: true, status: 'empty' });
    expect(errorCode(await list({ case_id: crypto.randomUUID() }))).toBe('not_found');
  });
});

deniedTo('feedback_list', 'researcher', () => ({}));
