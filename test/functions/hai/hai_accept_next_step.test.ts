import { expect, it } from 'vitest';
import type { hai_accept_next_step } from '../../../functions/hai/hai_accept_next_step.ts';
import type { hai_read_artifacts } from '../../../functions/hai/hai_read_artifacts.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { auditMark } from '../../harness/rows.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { bindProject, DB_STACKS, deniedTo, forEachStack, gate } from './_hai.ts';

type Accepted = ToolData<typeof hai_accept_next_step>;

forEachStack('hai_accept_next_step', DB_STACKS, (env) => {
  it('makes the pending proposal the canonical NEXT_STEP.md, with the owner’s ack in the audit log', async () => {
    const { s } = env();
    const p = await bindProject(s);
    for (const [i, text] of ['first', 'second'].entries()) {
      expectOk(await s.call('analyst', 'hai_propose_next_step', { project_id: p, content: text }));
      const audit = await auditMark(s.db.db);
      const a = expectOk<Accepted>(
        await s.call('ceo', 'hai_accept_next_step', { project_id: p, proposal_version: i + 1, ...gate }),
      );
      expect(a).toMatchObject({
        proposal_version: i + 1,
        next_step_version: i + 1,
        accepted_by: 'ceo',
        created: true,
      });
      expect(await audit()).toMatchObject([{ ownerAck: true, ownerReason: gate.reason, outcome: 'ok' }]);
    }
    const read = expectOk<ToolData<typeof hai_read_artifacts>>(
      await s.call('ceo', 'hai_read_artifacts', { project_id: p, names: ['NEXT_STEP.md'] }),
    );
    expect(read.artifacts).toMatchObject([{ content: 'second', version: 2 }]);
  });

  it('owner_gate_required, no_proposal, invalid_state, missing_project', async () => {
    const { s } = env();
    const p = await bindProject(s);
    expect(
      errorCode(await s.call('ceo', 'hai_accept_next_step', { project_id: p, proposal_version: 1, ...gate })),
    ).toBe('no_proposal');
    expectOk(await s.call('analyst', 'hai_propose_next_step', { project_id: p, content: 'one' }));
    expect(
      errorCode(await s.call('ceo', 'hai_accept_next_step', { project_id: p, proposal_version: 1 })),
    ).toBe('owner_gate_required');
    expect(
      errorCode(await s.call('ceo', 'hai_accept_next_step', { project_id: p, proposal_version: 7, ...gate })),
    ).toBe('invalid_state');
    expect(
      errorCode(
        await s.call('ceo', 'hai_accept_next_step', { project_id: 'nope', proposal_version: 1, ...gate }),
      ),
    ).toBe('missing_project');
  });
});

deniedTo('hai_accept_next_step', 'writer', { project_id: 'p', proposal_version: 1, ...gate });
