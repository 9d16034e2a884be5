// hai_inbox_list: what hai_park put in a project's inbox, read back page by page (oldest first), one project's
// or every project's; and the console's missions page shows the same items.
import { expect, it } from 'vitest';
import type { hai_inbox_list } from '../../../functions/hai/hai_inbox_list.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { signInOwner } from '../../harness/owner.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { bindProject, DB_STACKS, deniedTo, forEachStack, uniq } from './_hai.ts';

type Page = ToolData<typeof hai_inbox_list>;

forEachStack('hai_inbox_list', DB_STACKS, (env) => {
  it('reads a project’s inbox back, oldest first, page by page', async () => {
    const e = env();
    const p = await bindProject(e.s);
    const other = await bindProject(e.s);
    const texts = ['Ask about plan 1234', 'Check the hearing protocol', 'Compare with appeal 88/24'];
    for (const text of texts) {
      expectOk(await e.s.call('researcher', 'hai_park', { project_id: p, text, source: 'hearing' }));
      e.clock.advance(1000);
    }
    expectOk(await e.s.call('analyst', 'hai_park', { project_id: other, text: 'Elsewhere' }));
    const first = expectOk<Page>(await e.s.call('analyst', 'hai_inbox_list', { project_id: p, limit: 2 }));
    expect(first.items.map((i) => i.text)).toEqual(texts.slice(0, 2));
    expect(first.items[0]).toMatchObject({ project_id: p, source: 'hearing', parked_by: 'researcher' });
    expect(first.next_cursor).not.toBeNull();
    const second = expectOk<Page>(
      await e.s.call('analyst', 'hai_inbox_list', { project_id: p, limit: 2, cursor: first.next_cursor }),
    );
    expect(second.items.map((i) => i.text)).toEqual(texts.slice(2));
    expect(second.next_cursor).toBeNull();
    // Without project_id, every project's items.
    const all = expectOk<Page>(await e.s.call('ceo', 'hai_inbox_list', { limit: 200 }));
    expect(all.items.map((i) => i.text)).toEqual(expect.arrayContaining([...texts, 'Elsewhere']));
  });

  it('an empty inbox is empty; missing_project; invalid_args for a foreign cursor', async () => {
    const e = env();
    const p = await bindProject(e.s);
    const empty = await e.s.call('analyst', 'hai_inbox_list', { project_id: p });
    expect(empty.ok && empty.status).toBe('empty');
    expect(errorCode(await e.s.call('analyst', 'hai_inbox_list', { project_id: uniq('nope') }))).toBe(
      'missing_project',
    );
    expect(errorCode(await e.s.call('analyst', 'hai_inbox_list', { project_id: p, cursor: 'nope' }))).toBe(
      'invalid_args',
    );
  });

  it('the console’s missions page shows the parked items', async () => {
    const e = env();
    const p = await bindProject(e.s);
    const text = `רעיון לבדיקה ${uniq('idea')}`;
    expectOk(await e.s.call('researcher', 'hai_park', { project_id: p, text }));
    const owner = await signInOwner(e.s, 'dana', e.clock.now());
    const page = await (await owner.get('/console/missions')).text();
    expect(page).toContain(text);
  });
});

deniedTo('hai_inbox_list', 'analyst', { project_id: 'p' }, true);
