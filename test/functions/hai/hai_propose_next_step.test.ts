import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { hai_propose_next_step } from '../../../functions/hai/hai_propose_next_step.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { haiProposals } from '../../../src/db/schema/hai.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { bindProject, DB_STACKS, deniedTo, forEachStack } from './_hai.ts';

type Proposed = ToolData<typeof hai_propose_next_step>;

forEachStack('hai_propose_next_step', DB_STACKS, (env) => {
  it('writes a pending proposal; a newer one supersedes it; the same text is not proposed twice', async () => {
    const { s } = env();
    const p = await bindProject(s);
    const propose = (agent: 'analyst' | 'writer', content: string) =>
      s.call(agent, 'hai_propose_next_step', { project_id: p, content });
    expect(expectOk<Proposed>(await propose('analyst', 'Map the claims'))).toEqual({
      proposal_version: 1,
      state: 'pending',
      superseded: null,
      created: true,
    });
    expect(expectOk<Proposed>(await propose('writer', 'Draft the background'))).toEqual({
      proposal_version: 2,
      state: 'pending',
      superseded: 1,
      created: true,
    });
    // The same text from another agent (no request-layer record): the durable layer recognises it.
    expect(expectOk<Proposed>(await propose('analyst', 'Draft the background'))).toMatchObject({
      proposal_version: 2,
      created: false,
    });
    const states = await s.db.db.select().from(haiProposals).where(eq(haiProposals.projectId, p));
    expect(states.map((r) => [r.version, r.state]).sort()).toEqual([
      [1, 'superseded'],
      [2, 'pending'],
    ]);
    const pending = await s.db.db
      .select()
      .from(haiProposals)
      .where(and(eq(haiProposals.projectId, p), eq(haiProposals.state, 'pending')));
    expect(pending).toHaveLength(1);
  });

  it('missing_project and invalid_args', async () => {
    const { s } = env();
    expect(
      errorCode(await s.call('writer', 'hai_propose_next_step', { project_id: 'nope', content: 'c' })),
    ).toBe('missing_project');
    const p = await bindProject(s);
    expect(errorCode(await s.call('writer', 'hai_propose_next_step', { project_id: p, content: '' }))).toBe(
      'invalid_args',
    );
  });
});

deniedTo('hai_propose_next_step', 'qa', { project_id: 'p', content: 'c' }, true);
