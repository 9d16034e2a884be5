import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { hai_park } from '../../../functions/hai/hai_park.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { haiInbox } from '../../../src/db/schema/hai.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { bindProject, DB_STACKS, deniedTo, forEachStack } from './_hai.ts';

forEachStack('hai_park', DB_STACKS, (env) => {
  it('parks an idea in the project inbox; the same text is one item', async () => {
    const { s } = env();
    const p = await bindProject(s);
    const first = expectOk<ToolData<typeof hai_park>>(
      await s.call('researcher', 'hai_park', { project_id: p, text: 'Look at plan 1234', source: 'hearing' }),
    );
    expect(first).toMatchObject({
      created: true,
      item: { text: 'Look at plan 1234', source: 'hearing', parked_by: 'researcher' },
    });
    // Another agent parking the same text: the durable layer answers, no second item.
    const again = expectOk<ToolData<typeof hai_park>>(
      await s.call('analyst', 'hai_park', { project_id: p, text: 'Look at plan 1234' }),
    );
    expect(again).toMatchObject({ created: false, item: { id: first.item.id } });
    expect(await s.db.db.select().from(haiInbox).where(eq(haiInbox.projectId, p))).toHaveLength(1);
  });

  it('missing_project and invalid_args', async () => {
    const { s } = env();
    expect(errorCode(await s.call('analyst', 'hai_park', { project_id: 'nope', text: 't' }))).toBe(
      'missing_project',
    );
    const p = await bindProject(s);
    expect(errorCode(await s.call('analyst', 'hai_park', { project_id: p, text: '   ' }))).toBe(
      'invalid_args',
    );
  });
});

deniedTo('hai_park', 'analyst', { project_id: 'p', text: 't' }, true);
