// block_edit_apply: a quoted span or the whole text replaced on base_version as the next version; a stale
// base_version is invalid_state naming the current version and nothing is lost; a retried edit is found again;
// refusals; a deleted case; 20 identical edits at once; no grant.
import { and, asc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { draftBlocks } from '../../../src/db/schema/drafting.ts';
import { kvEntries } from '../../../src/db/schema/kv_entries.ts';
import {
  ALL_STACKS,
  DB_STACKS,
  deleteCase,
  deniedTo,
  forEachStack,
  twentyAtOnce,
} from '../../harness/analysis.ts';
import { seedCase } from '../../harness/documents.ts';
import { errorCode, expectOk, type TestServer } from '../../harness/server.ts';

interface Edited {
  block: { key: string; version: number; created: boolean };
  base_version: number;
}

const TEXT = 'העוררים הם בעלי הזכויות בחלקה 12.\nהוועדה המקומית דחתה את הבקשה.';

async function withBackground(s: TestServer): Promise<string> {
  const caseId = await seedCase(s.db.db);
  expectOk(
    await s.call('writer', 'block_write', {
      case_id: caseId,
      blocks: [{ kind: 'background', text: TEXT, citations: [{ text: 'סעיף 152 לחוק' }] }],
    }),
  );
  return caseId;
}

const versions = (s: TestServer, caseId: string) =>
  s.db.db
    .select()
    .from(draftBlocks)
    .where(and(eq(draftBlocks.caseId, caseId), eq(draftBlocks.key, 'background')))
    .orderBy(asc(draftBlocks.version));

forEachStack('block_edit_apply', DB_STACKS, (server) => {
  it('replaces a quoted span as the next version, keeping what the block answers; the whole text too', async () => {
    const s = server();
    const caseId = await withBackground(s);
    const edit = { find: 'בחלקה 12', replace: 'בחלקה 14' };
    const res = expectOk<Edited>(
      await s.call('writer', 'block_edit_apply', {
        case_id: caseId,
        block: 'background',
        base_version: 1,
        edit,
      }),
    );
    expect(res.block).toMatchObject({ version: 2, created: true });
    const whole = expectOk<Edited>(
      await s.call('ceo', 'block_edit_apply', {
        case_id: caseId,
        block: 'background',
        base_version: 2,
        edit: { replace: 'רקע חדש.' },
      }),
    );
    expect(whole.block.version).toBe(3);
    const rows = await versions(s, caseId);
    expect(rows.map((r) => [r.version, r.text, r.source, r.author])).toEqual([
      [1, TEXT, 'write', 'writer'],
      [2, TEXT.replace('בחלקה 12', 'בחלקה 14'), 'edit', 'writer'],
      [3, 'רקע חדש.', 'edit', 'ceo'],
    ]);
    expect(rows[2]?.citations).toEqual([{ text: 'סעיף 152 לחוק' }]);
  });

  it('a stale base_version is invalid_state naming the current version; nothing is lost; a retried edit is found again', async () => {
    const s = server();
    const caseId = await withBackground(s);
    const mine = {
      case_id: caseId,
      block: 'background',
      base_version: 1,
      edit: { find: 'דחתה', replace: 'קיבלה' },
    };
    expectOk(
      await s.call('writer', 'block_edit_apply', {
        case_id: caseId,
        block: 'background',
        base_version: 1,
        edit: { find: 'בחלקה 12', replace: 'בחלקה 14' },
      }),
    );
    const stale = await s.call('ceo', 'block_edit_apply', mine);
    expect(errorCode(stale)).toBe('invalid_state');
    expect(stale.ok ? null : stale.error.details).toMatchObject({ current_version: 2, base_version: 1 });
    expect(stale.ok ? '' : stale.error.message).toContain('version 2');
    expect((await versions(s, caseId)).map((r) => r.version)).toEqual([1, 2]);
    // Applied on the current version it lands, and both edits are in the text.
    const fixed = expectOk<Edited>(await s.call('ceo', 'block_edit_apply', { ...mine, base_version: 2 }));
    expect(fixed.block.version).toBe(3);
    const [, , third] = await versions(s, caseId);
    expect(third?.text).toContain('בחלקה 14');
    expect(third?.text).toContain('קיבלה');
    // The same edit retried without the key-value record: its result is the version after its base.
    await s.db.db.delete(kvEntries);
    const again = expectOk<Edited>(await s.call('ceo', 'block_edit_apply', { ...mine, base_version: 2 }));
    expect(again.block).toMatchObject({ version: 3, created: false });
  });

  it('refuses a span not found or found twice, an unknown version, an emptied block; an unknown block is not_found', async () => {
    const s = server();
    const caseId = await withBackground(s);
    const call = (over: Record<string, unknown>) =>
      s.call('writer', 'block_edit_apply', {
        case_id: caseId,
        block: 'background',
        base_version: 1,
        ...over,
      });
    const missing = await call({ edit: { find: 'אין כזה', replace: 'x' } });
    expect(errorCode(missing)).toBe('invalid_args');
    expect(JSON.stringify(missing.ok ? null : missing.error.details)).toContain('edit.find');
    expect(errorCode(await call({ edit: { find: 'ה', replace: 'x' } }))).toBe('invalid_args');
    const future = await call({ base_version: 7, edit: { replace: 'x' } });
    expect(errorCode(future)).toBe('invalid_args');
    expect(JSON.stringify(future.ok ? null : future.error.details)).toContain('base_version');
    expect(errorCode(await call({ edit: { replace: '   ' } }))).toBe('invalid_args');
    expect(errorCode(await call({ block: 'outcome', edit: { replace: 'x' } }))).toBe('not_found');
    expect((await versions(s, caseId)).map((r) => r.version)).toEqual([1]);
    await deleteCase(s.db.db, caseId);
    expect(errorCode(await call({ edit: { replace: 'x' } }))).toBe('not_found');
  });
});

forEachStack('block_edit_apply at once', ALL_STACKS, (server) => {
  it('20 identical edits at once make one version', async () => {
    const s = server();
    const caseId = await withBackground(s);
    const args = {
      case_id: caseId,
      block: 'background',
      base_version: 1,
      edit: { find: 'דחתה', replace: 'קיבלה' },
    };
    const answers = await twentyAtOnce(s, 'block_edit_apply', args, ['writer', 'ceo']);
    for (const a of answers) expect(expectOk<Edited>(a).block.version).toBe(2);
    expect((await versions(s, caseId)).map((r) => r.version)).toEqual([1, 2]);
  });
});

deniedTo('block_edit_apply', 'qa', (c) => ({
  case_id: c.caseId,
  block: 'background',
  base_version: 1,
  edit: { replace: 'x' },
}));
