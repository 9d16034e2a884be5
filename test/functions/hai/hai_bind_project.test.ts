import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { hai_bind_project } from '../../../functions/hai/hai_bind_project.ts';
import type { ToolData } from '../../../src/contract/define.ts';
import { haiMounts } from '../../../src/db/schema/hai.ts';
import { auditMark } from '../../harness/rows.ts';
import { errorCode, expectOk } from '../../harness/server.ts';
import { DB_STACKS, deniedTo, forEachStack, gate, uniq } from './_hai.ts';

type Bound = ToolData<typeof hai_bind_project>;

forEachStack('hai_bind_project', DB_STACKS, (env) => {
  it('registers the project, binds devices, re-binds a moved mount, records the owner’s ack', async () => {
    const { s } = env();
    const id = uniq('p');
    const bind = (device: string, path: string) =>
      s.call('ceo', 'hai_bind_project', {
        project_id: id,
        device_id: device,
        mount_path: path,
        title: 'ערר 1024/25',
        ...gate,
      });
    const audit = await auditMark(s.db.db);
    expect(expectOk<Bound>(await bind('laptop', '/home/a/p'))).toMatchObject({
      project_id: id,
      project_created: true,
      mount: { device_id: 'laptop', mount_path: '/home/a/p', bound_by: 'ceo' },
      changed: true,
    });
    expect(await audit()).toMatchObject([
      { tool: 'hai_bind_project', ownerAck: true, ownerReason: gate.reason },
    ]);
    expect(expectOk<Bound>(await bind('runner', '/srv/p'))).toMatchObject({
      project_created: false,
      changed: true,
    });
    expect(expectOk<Bound>(await bind('laptop', '/home/a/moved'))).toMatchObject({
      mount: { mount_path: '/home/a/moved' },
      changed: true,
    });
    const mounts = await s.db.db.select().from(haiMounts).where(eq(haiMounts.projectId, id));
    expect(mounts.map((m) => [m.deviceId, m.mountPath]).sort()).toEqual([
      ['laptop', '/home/a/moved'],
      ['runner', '/srv/p'],
    ]);
    const [laptop] = await s.db.db
      .select()
      .from(haiMounts)
      .where(and(eq(haiMounts.projectId, id), eq(haiMounts.deviceId, 'laptop')));
    expect(laptop?.reason).toBe(gate.reason);
  });

  it('owner_gate_required and invalid_args', async () => {
    const { s } = env();
    const args = { project_id: uniq('p'), device_id: 'd', mount_path: '/m' };
    expect(errorCode(await s.call('ceo', 'hai_bind_project', args))).toBe('owner_gate_required');
    expect(errorCode(await s.call('ceo', 'hai_bind_project', { ...args, owner_ack: true }))).toBe(
      'owner_gate_required',
    );
    expect(
      errorCode(await s.call('ceo', 'hai_bind_project', { ...args, project_id: '../etc', ...gate })),
    ).toBe('invalid_args');
    expect(
      errorCode(await s.call('ceo', 'hai_bind_project', { ...args, mount_path: '/a\u0000b', ...gate })),
    ).toBe('invalid_args');
  });
});

deniedTo('hai_bind_project', 'qa', { project_id: 'p', device_id: 'd', mount_path: '/m', ...gate });
