import { expect, it } from 'vitest';
import type { hai_read_artifacts } from '../../../functions/hai/hai_read_artifacts.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { bindProject, DB_STACKS, deniedTo, forEachStack } from './_hai.ts';

type Read = ToolData<typeof hai_read_artifacts>;

forEachStack('hai_read_artifacts', DB_STACKS, (env) => {
  it('reads the latest text, a given version, and the index', async () => {
    const { s } = env();
    const p = await bindProject(s);
    for (const [label, text] of [
      ['v1', 'state one'],
      ['v2', 'state two'],
    ]) {
      expectOk(
        await s.call('analyst', 'hai_checkpoint', {
          project_id: p,
          label,
          summary: label,
          artifacts: [{ name: 'PROJECT_STATE.md', content: text }],
        }),
      );
    }
    expectOk(await s.call('writer', 'hai_propose_next_step', { project_id: p, content: 'next' }));
    const latest = expectOk<Read>(
      await s.call('qa', 'hai_read_artifacts', { project_id: p, names: ['PROJECT_STATE.md'] }),
    );
    expect(latest.artifacts).toMatchObject([
      { name: 'PROJECT_STATE.md', version: 2, content: 'state two', written_by: 'analyst' },
    ]);
    const v1 = expectOk<Read>(
      await s.call('qa', 'hai_read_artifacts', { project_id: p, names: ['PROJECT_STATE.md'], version: 1 }),
    );
    expect(v1.artifacts[0]?.content).toBe('state one');
    const index = expectOk<Read>(await s.call('qa', 'hai_read_artifacts', { project_id: p }));
    expect(index.artifacts).toEqual([
      { name: 'NEXT_STEP.proposed.md', version: 1 },
      { name: 'PROJECT_STATE.md', version: 2 },
    ]);
  });

  it('is empty for a project without artifacts, or names that do not exist yet', async () => {
    const { s } = env();
    const p = await bindProject(s);
    expect((await s.call('qa', 'hai_read_artifacts', { project_id: p })).status).toBe('empty');
    const r = await s.call('qa', 'hai_read_artifacts', { project_id: p, names: ['BRIEFING.md'] });
    expect(r.status).toBe('empty');
    expect(expectOk<Read>(r).missing).toEqual(['BRIEFING.md']);
  });

  it('path_outside_root, missing_project and invalid_args', async () => {
    const { s } = env();
    const p = await bindProject(s);
    expect(
      errorCode(await s.call('qa', 'hai_read_artifacts', { project_id: p, names: ['../BRIEFING.md'] })),
    ).toBe('path_outside_root');
    expect(
      errorCode(await s.call('qa', 'hai_read_artifacts', { project_id: 'nope', names: ['BRIEFING.md'] })),
    ).toBe('missing_project');
    expect(
      errorCode(
        await s.call('qa', 'hai_read_artifacts', {
          project_id: p,
          names: ['BRIEFING.md', 'PROMPT.md'],
          version: 1,
        }),
      ),
    ).toBe('invalid_args');
    expect(errorCode(await s.call('qa', 'hai_read_artifacts', { project_id: p, names: [] }))).toBe(
      'invalid_args',
    );
    expect(errorCode(await s.call('qa', 'hai_read_artifacts', { project_id: p, version: 1 }))).toBe(
      'invalid_args',
    );
  });
});

deniedTo('hai_read_artifacts', 'researcher', { project_id: 'p' }, true);
