import { expect, it } from 'vitest';
import type { hai_set_focus } from '../../../functions/hai/hai_set_focus.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { bindProject, DB_STACKS, deniedTo, forEachStack } from './_hai.ts';

type Focus = ToolData<typeof hai_set_focus>;

forEachStack('hai_set_focus', DB_STACKS, (env) => {
  it('activates and parks lanes, keeping notes; a repeat changes nothing', async () => {
    const { s } = env();
    const p = await bindProject(s);
    const set = (args: Record<string, unknown>) => s.call('ceo', 'hai_set_focus', { project_id: p, ...args });
    expect(expectOk<Focus>(await set({ lane: 'analysis', state: 'active', note: 'claims' }))).toMatchObject({
      lane: { lane: 'analysis', state: 'active', note: 'claims' },
      active_lanes: ['analysis'],
      changed: true,
    });
    expect(expectOk<Focus>(await set({ lane: 'analysis', state: 'active' })).changed).toBe(false);
    expect(expectOk<Focus>(await set({ lane: 'analysis', state: 'parked' }))).toMatchObject({
      lane: { state: 'parked', note: 'claims' },
      active_lanes: [],
    });
  });

  it('max_active_lanes for a third active lane, even under concurrency', async () => {
    const { s } = env();
    const p = await bindProject(s);
    const results = await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map((lane) =>
        s.call('ceo', 'hai_set_focus', { project_id: p, lane, state: 'active' }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(2);
    expect(results.filter((r) => errorCode(r) === 'max_active_lanes')).toHaveLength(3);
  });

  it('missing_project and invalid_args', async () => {
    const { s } = env();
    expect(
      errorCode(await s.call('ceo', 'hai_set_focus', { project_id: 'nope', lane: 'a', state: 'active' })),
    ).toBe('missing_project');
    const p = await bindProject(s);
    expect(errorCode(await s.call('ceo', 'hai_set_focus', { project_id: p, lane: 'a', state: 'done' }))).toBe(
      'invalid_args',
    );
    expect(
      errorCode(await s.call('ceo', 'hai_set_focus', { project_id: p, lane: '../a', state: 'active' })),
    ).toBe('invalid_args');
  });
});

deniedTo('hai_set_focus', 'analyst', { project_id: 'p', lane: 'a', state: 'active' });
