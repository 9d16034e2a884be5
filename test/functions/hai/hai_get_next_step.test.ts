import { expect, it } from 'vitest';
import type { hai_get_next_step } from '../../../functions/hai/hai_get_next_step.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { bindProject, DB_STACKS, deniedTo, forEachStack, gate } from './_hai.ts';

type Next = ToolData<typeof hai_get_next_step>;

forEachStack('hai_get_next_step', DB_STACKS, (env) => {
  it('shows the pending proposal, then the canonical step once accepted', async () => {
    const { s } = env();
    const p = await bindProject(s);
    const none = await s.call('writer', 'hai_get_next_step', { project_id: p });
    expect(none.status).toBe('empty');
    expect(expectOk<Next>(none)).toMatchObject({ next_step: null, pending_proposal: null });
    expectOk(
      await s.call('writer', 'hai_propose_next_step', { project_id: p, content: 'Draft the background' }),
    );
    expect(expectOk<Next>(await s.call('writer', 'hai_get_next_step', { project_id: p }))).toMatchObject({
      next_step: null,
      pending_proposal: { proposal_version: 1, content: 'Draft the background', proposed_by: 'writer' },
    });
    expectOk(await s.call('ceo', 'hai_accept_next_step', { project_id: p, proposal_version: 1, ...gate }));
    expect(expectOk<Next>(await s.call('writer', 'hai_get_next_step', { project_id: p }))).toMatchObject({
      next_step: { version: 1, content: 'Draft the background' },
      pending_proposal: null,
    });
  });

  it('missing_project for an unknown project', async () => {
    expect(errorCode(await env().s.call('writer', 'hai_get_next_step', { project_id: 'nope' }))).toBe(
      'missing_project',
    );
  });
});

deniedTo('hai_get_next_step', 'writer', { project_id: 'p' }, true);
