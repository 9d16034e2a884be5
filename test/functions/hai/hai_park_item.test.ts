import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { hai_park_item } from '../../../functions/hai/hai_park_item.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { haiParkedItems } from '../../../src/db/schema/hai.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { abandonMission, DB_STACKS, deniedTo, forEachStack, openMission } from './_hai.ts';

forEachStack('hai_park_item', DB_STACKS, (env) => {
  it('parks a work item with its rationale, without any execution right; once per item', async () => {
    const e = env();
    const m = await openMission(e);
    const first = expectOk<ToolData<typeof hai_park_item>>(
      await e.s.call('researcher', 'hai_park_item', {
        mission_id: m.mission.id,
        item: 'Survey German planning law',
        rationale: 'research:foreign-law is out of scope',
      }),
    );
    expect(first).toMatchObject({
      created: true,
      parked: {
        item: 'Survey German planning law',
        rationale: 'research:foreign-law is out of scope',
        parked_by: 'researcher',
        execution_right: false,
      },
    });
    const again = expectOk<ToolData<typeof hai_park_item>>(
      await e.s.call('analyst', 'hai_park_item', {
        mission_id: m.mission.id,
        item: 'Survey German planning law',
        rationale: 'again',
      }),
    );
    expect(again.created).toBe(false);
    expect(
      await e.s.db.db.select().from(haiParkedItems).where(eq(haiParkedItems.missionId, m.mission.id)),
    ).toHaveLength(1);
  });

  it('invalid_args without a rationale, not_found, mission_not_active', async () => {
    const e = env();
    const m = await openMission(e);
    expect(errorCode(await e.s.call('ceo', 'hai_park_item', { mission_id: m.mission.id, item: 'x' }))).toBe(
      'invalid_args',
    );
    expect(
      errorCode(
        await e.s.call('ceo', 'hai_park_item', { mission_id: m.mission.id, item: 'x', rationale: ' ' }),
      ),
    ).toBe('invalid_args');
    expect(
      errorCode(
        await e.s.call('ceo', 'hai_park_item', {
          mission_id: crypto.randomUUID(),
          item: 'x',
          rationale: 'r',
        }),
      ),
    ).toBe('not_found');
    await abandonMission(e, m.mission.id);
    expect(
      errorCode(
        await e.s.call('ceo', 'hai_park_item', { mission_id: m.mission.id, item: 'x', rationale: 'r' }),
      ),
    ).toBe('mission_not_active');
  });
});

deniedTo('hai_park_item', 'qa', { mission_id: crypto.randomUUID(), item: 'x', rationale: 'r' }, true);
