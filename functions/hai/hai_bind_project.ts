import * as z from 'zod';
import { caseIdInput, loadLiveCase } from '../../src/cases/live.ts';
import { defineTool } from '../../src/contract/define.ts';
import { writtenOrExisting } from '../../src/contract/durable.ts';
import { ok } from '../../src/contract/envelope.ts';
import { invalidArg } from '../../src/contract/errors.ts';
import { and, eq, sql } from '../../src/db/orm.ts';
import { haiMounts, haiProjects } from '../../src/db/schema/hai.ts';
import { deviceIdInput, projectIdInput } from '../../src/governance/projects.ts';

export const hai_bind_project = defineTool({
  name: 'hai_bind_project',
  title: 'Bind a project to a device',
  description:
    'Registers a project (if new) and where it is mounted on one device. Owner-gated. A mission that ' +
    'names a project takes sessions, proofs and closes only from a bound device ' +
    '(device_mount_required). A new path re-binds the device. Returns the project and the mount.',
  input: {
    project_id: projectIdInput,
    device_id: deviceIdInput.describe('The device being bound, e.g. the workstation or runner name'),
    mount_path: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .describe('Where the project lives on that device (informational)'),
    title: z
      .string()
      .trim()
      .min(1)
      .max(300)
      .optional()
      .describe('Human title of the project, set when it is first bound'),
    case_id: caseIdInput.optional().describe('The case it works on'),
  },
  output: z.object({
    project_id: z.string().describe('The project bound'),
    project_created: z.boolean().describe('Whether this call registered the project'),
    mount: z
      .object({
        device_id: z.string(),
        mount_path: z.string(),
        bound_by: z.string().describe('The agent that bound it'),
        bound_at: z.iso.datetime(),
      })
      .describe('The mount on this device as it now stands'),
    case_id: z.uuid().nullable().describe('The case the project is bound to'),
    changed: z.boolean().describe('false when the device was already bound at this path'),
  }),
  mutates: 'write',
  ownerGate: true,
  idempotencyKey: {
    describe: 'project_id + device_id + mount_path (+ case_id)',
    of: (input) =>
      `${input.project_id}:${input.device_id}:${input.mount_path}${input.case_id ? `:${input.case_id}` : ''}`,
  },
  precheck: (input) => {
    if (input.mount_path.includes('\0')) throw invalidArg('mount_path', 'contains NUL');
  },
  async run({ ctx, input, gate }) {
    const now = ctx.now();
    if (input.case_id !== undefined) await loadLiveCase(ctx.db, input.case_id);
    return ctx.db.transaction(async (tx) => {
      const created = await tx
        .insert(haiProjects)
        .values({
          id: input.project_id,
          title: input.title ?? null,
          caseId: input.case_id ?? null,
          createdBy: ctx.agent,
          createdAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: haiProjects.id });
      if (created.length === 0 && input.case_id !== undefined)
        await tx
          .update(haiProjects)
          .set({ caseId: input.case_id })
          .where(eq(haiProjects.id, input.project_id));
      const [project] = await tx
        .select({ caseId: haiProjects.caseId })
        .from(haiProjects)
        .where(eq(haiProjects.id, input.project_id));
      const { row: mount, written: changed } = await writtenOrExisting(
        tx
          .insert(haiMounts)
          .values({
            projectId: input.project_id,
            deviceId: input.device_id,
            mountPath: input.mount_path,
            boundBy: ctx.agent,
            boundAt: now,
            reason: gate?.reason ?? '',
          })
          .onConflictDoUpdate({
            target: [haiMounts.projectId, haiMounts.deviceId],
            set: {
              mountPath: sql`excluded.mount_path`,
              boundBy: sql`excluded.bound_by`,
              boundAt: sql`excluded.bound_at`,
              reason: sql`excluded.reason`,
            },
            where: sql`${haiMounts.mountPath} <> excluded.mount_path`,
          })
          .returning(),
        () =>
          tx
            .select()
            .from(haiMounts)
            .where(and(eq(haiMounts.projectId, input.project_id), eq(haiMounts.deviceId, input.device_id))),
        'mount row',
      );
      return ok(
        {
          project_id: input.project_id,
          project_created: created.length > 0,
          mount: {
            device_id: mount.deviceId,
            mount_path: mount.mountPath,
            bound_by: mount.boundBy,
            bound_at: mount.boundAt.toISOString(),
          },
          case_id: project?.caseId ?? null,
          changed,
        },
        changed
          ? `Project ${input.project_id} bound on device ${input.device_id}`
          : `Project ${input.project_id} was already bound there; nothing changed`,
      );
    });
  },
});
