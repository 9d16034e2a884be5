// draft_bookmark_list: an export's block anchors (tag, bookmark, version, exported text hash), by export_id or
// the case's latest export; none yet is empty; refusals; a deleted case; no grant.
import { expect, it } from 'vitest';
import { textHash } from '../../../src/drafting/blocks.ts';
import { DB_STACKS, deleteCase, deniedTo, forEachStack } from '../../harness/analysis.ts';
import { seedCase } from '../../harness/documents.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import type { Exported } from '../block/_drafting.ts';

interface Anchors {
  items: {
    key: string;
    kind: string;
    version: number;
    tag: string;
    bookmark: string;
    text_hash: string;
    paragraphs: number;
  }[];
  export_id: string | null;
  next_cursor: string | null;
}

forEachStack('draft_bookmark_list', DB_STACKS, (server) => {
  it('lists the anchors of an export and of the case’s latest export', async () => {
    const s = server();
    const caseId = await seedCase(s.db.db);
    const none = await s.call('qa', 'draft_bookmark_list', { case_id: caseId });
    expect(none.status).toBe('empty');
    expectOk(
      await s.call('writer', 'block_write', {
        case_id: caseId,
        blocks: [
          { kind: 'background', text: 'א.\nב.' },
          { kind: 'discussion', key: 'discussion:a', title: 'שאלה', text: 'דיון.' },
        ],
      }),
    );
    const first = expectOk<Exported>(await s.call('writer', 'draft_export', { case_id: caseId }));
    expectOk(
      await s.call('writer', 'block_write', {
        case_id: caseId,
        blocks: [{ kind: 'outcome', text: 'הערר נדחה.' }],
      }),
    );
    const second = expectOk<Exported>(await s.call('writer', 'draft_export', { case_id: caseId }));
    const byId = expectOk<Anchors>(await s.call('qa', 'draft_bookmark_list', { export_id: first.export_id }));
    expect(byId.export_id).toBe(first.export_id);
    expect(byId.items).toEqual([
      {
        key: 'background',
        kind: 'background',
        version: 1,
        tag: 'background|background|1',
        bookmark: 'chambers_block_0',
        text_hash: textHash('א.\nב.'),
        paragraphs: 2,
      },
      {
        key: 'discussion:a',
        kind: 'discussion',
        version: 1,
        tag: 'discussion|discussion:a|1',
        bookmark: 'chambers_block_1',
        text_hash: textHash('דיון.'),
        paragraphs: 1,
      },
    ]);
    const latest = expectOk<Anchors>(
      await s.call('writer', 'draft_bookmark_list', { case_id: caseId, limit: 2 }),
    );
    expect(latest.export_id).toBe(second.export_id);
    expect(latest.items.map((a) => a.key)).toEqual(['background', 'discussion:a']);
    const rest = expectOk<Anchors>(
      await s.call('writer', 'draft_bookmark_list', {
        case_id: caseId,
        limit: 2,
        cursor: latest.next_cursor,
      }),
    );
    expect(rest.items.map((a) => a.key)).toEqual(['outcome']);
  });

  it('refuses both or neither argument; an unknown export and a deleted case are not_found', async () => {
    const s = server();
    const caseId = await seedCase(s.db.db);
    expect(errorCode(await s.call('qa', 'draft_bookmark_list', {}))).toBe('invalid_args');
    expect(errorCode(await s.call('qa', 'draft_bookmark_list', { case_id: caseId, export_id: caseId }))).toBe(
      'invalid_args',
    );
    expect(errorCode(await s.call('qa', 'draft_bookmark_list', { export_id: crypto.randomUUID() }))).toBe(
      'not_found',
    );
    expectOk(
      await s.call('writer', 'block_write', {
        case_id: caseId,
        blocks: [{ kind: 'outcome', text: 'הערר נדחה.' }],
      }),
    );
    const out = expectOk<Exported>(await s.call('writer', 'draft_export', { case_id: caseId }));
    await deleteCase(s.db.db, caseId);
    expect(errorCode(await s.call('qa', 'draft_bookmark_list', { case_id: caseId }))).toBe('not_found');
    expect(errorCode(await s.call('qa', 'draft_bookmark_list', { export_id: out.export_id }))).toBe(
      'not_found',
    );
  });
});

deniedTo('draft_bookmark_list', 'analyst', (c) => ({ case_id: c.caseId }));
