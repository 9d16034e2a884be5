// Projects of the governance family: the project and device inputs, loading a project, its focus-lane limit,
// and the device-mount rule (a mission that names a project acts only from a device the project is bound on).

import * as z from 'zod';
import { invalidArg, ToolError } from '../contract/errors.ts';
import { and, eq } from '../db/orm.ts';
import { haiMounts, haiProjects } from '../db/schema/hai.ts';
import type { Db } from '../db/types.ts';
import { type Holds, sentence, use } from './roles.ts';

export const projectIdInput = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'letters, digits, ".", "_" or "-", up to 64')
  .describe('The project id, e.g. "erer-1024-25"');

export const deviceIdInput = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .describe('This session’s device; required when the mission names a project');

/** At most this many focus lanes of a project are active at once (hai_set_focus enforces it). */
export const MAX_ACTIVE_LANES = 2;

export async function loadProject(db: Db, ctx: Holds, id: string, lock = false) {
  const q = db.select().from(haiProjects).where(eq(haiProjects.id, id));
  const rows = lock ? await q.for('update') : await q;
  const row = rows[0];
  if (row === undefined) {
    throw new ToolError('missing_project', `No project "${id}"`, {
      details: { project_id: id },
      hint: sentence(
        `${use(ctx, 'hai_bind_project', 'bind the project', ' (owner-gated)')} first, or ${use(ctx, 'hai_status', 'check the id')}`,
      ),
    });
  }
  return row;
}

/** The device rule: with a project, device_id is required and must be mounted. */
export async function requireDevice(
  db: Db,
  ctx: Holds,
  projectId: string | null,
  deviceId: string | undefined,
): Promise<void> {
  if (projectId === null) return;
  if (deviceId === undefined) {
    throw invalidArg('device_id', `required: the mission's contract names project "${projectId}"`);
  }
  const rows = await db
    .select({ deviceId: haiMounts.deviceId })
    .from(haiMounts)
    .where(and(eq(haiMounts.projectId, projectId), eq(haiMounts.deviceId, deviceId)));
  if (rows.length === 0) {
    throw new ToolError(
      'device_mount_required',
      `Project "${projectId}" is not mounted on device "${deviceId}"`,
      {
        details: { project_id: projectId, device_id: deviceId },
        hint: sentence(use(ctx, 'hai_bind_project', 'bind the project on this device', ' (owner-gated)')),
      },
    );
  }
}
