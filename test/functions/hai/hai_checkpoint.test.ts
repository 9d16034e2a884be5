import { expect, it } from 'vitest';
import type { hai_checkpoint } from '../../../functions/hai/hai_checkpoint.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { bindProject, DB_STACKS, deniedTo, forEachStack } from './_hai.ts';

type Checkpoint = ToolData<typeof hai_checkpoint>;

forEachStack('hai_checkpoint', DB_STACKS, (env) => {
  it('records a checkpoint with the artifacts it wrote and the versions it saw', async () => {
    const { s } = env();
    const p = await bindProject(s);
    const c1 = expectOk<Checkpoint>(
      await s.call('analyst', 'hai_checkpoint', {
        project_id: p,
        label: 'analysis-1',
        summary: 'Claims mapped',
        artifacts: [
          { name: 'PROJECT_STATE.md', content: 'state' },
          { name: 'EXECUTION_REPORT_ANALYSIS.md', content: 'report' },
        ],
      }),
    );
    expect(c1).toMatchObject({
      created: true,
      checkpoint: {
        label: 'analysis-1',
        written: ['PROJECT_STATE.md', 'EXECUTION_REPORT_ANALYSIS.md'],
        artifacts: { 'PROJECT_STATE.md': 1, 'EXECUTION_REPORT_ANALYSIS.md': 1 },
      },
    });
    // Unchanged text writes no new version.
    const c2 = expectOk<Checkpoint>(
      await s.call('writer', 'hai_checkpoint', {
        project_id: p,
        label: 'drafting-1',
        summary: 'Background drafted',
        artifacts: [
          { name: 'PROJECT_STATE.md', content: 'state' },
          { name: 'BRIEFING.md', content: 'brief' },
        ],
      }),
    );
    expect(c2.checkpoint.written).toEqual(['BRIEFING.md']);
    expect(c2.checkpoint.artifacts).toEqual({
      'PROJECT_STATE.md': 1,
      'EXECUTION_REPORT_ANALYSIS.md': 1,
      'BRIEFING.md': 1,
    });
  });

  it('path_outside_root, invalid_args, idempotency_key_reuse, missing_project', async () => {
    const { s } = env();
    const p = await bindProject(s);
    const cp = (args: Record<string, unknown>) =>
      s.call('analyst', 'hai_checkpoint', { project_id: p, summary: 's', ...args });
    expect(errorCode(await cp({ label: 'x', artifacts: [{ name: '/etc/passwd', content: 'c' }] }))).toBe(
      'path_outside_root',
    );
    // The next step is written only through the proposal gate.
    expect(errorCode(await cp({ label: 'x', artifacts: [{ name: 'NEXT_STEP.md', content: 'c' }] }))).toBe(
      'invalid_args',
    );
    expect(
      errorCode(
        await cp({
          label: 'x',
          artifacts: [
            { name: 'BRIEFING.md', content: 'a' },
            { name: 'BRIEFING.md', content: 'b' },
          ],
        }),
      ),
    ).toBe('invalid_args');
    expectOk(await cp({ label: 'x' }));
    expect(errorCode(await cp({ label: 'x', summary: 'different' }))).toBe('idempotency_key_reuse');
    expect(
      errorCode(await s.call('analyst', 'hai_checkpoint', { project_id: 'nope', label: 'x', summary: 's' })),
    ).toBe('missing_project');
  });
});

deniedTo('hai_checkpoint', 'analyst', { project_id: 'p', label: 'l', summary: 's' }, true);
