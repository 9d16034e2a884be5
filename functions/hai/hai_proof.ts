import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { writtenOrExisting } from '../../src/contract/durable.ts';
import { ok } from '../../src/contract/envelope.ts';
import { invalidArg, ToolError } from '../../src/contract/errors.ts';
import { sha256Hex, stableStringify } from '../../src/contract/hash.ts';
import { and, eq } from '../../src/db/orm.ts';
import { haiEvidence, proofResults } from '../../src/db/schema/hai.ts';
import { leaseIdInput, writeUnderLease } from '../../src/governance/leases.ts';
import { deviceIdInput, requireDevice } from '../../src/governance/projects.ts';
import { runCheck } from '../../src/review/criteria.ts';

export const hai_proof = defineTool({
  name: 'hai_proof',
  title: 'Record evidence for an acceptance criterion',
  description:
    'Records evidence for one acceptance criterion of your session’s contract: what was checked, pass ' +
    'or fail, and a reference, with you as checker. A server-checked criterion gets the server’s result; ' +
    'a free-text one counts only once the owner confirms it. device_id when the mission names a project.',
  input: {
    lease_id: leaseIdInput,
    criterion_id: z
      .string()
      .trim()
      .min(1)
      .max(50)
      .describe('The criterion id from the contract (hai_get_contract)'),
    checked: z.string().trim().min(1).max(5000).describe('What was checked and how'),
    result: z
      .enum(proofResults)
      .optional()
      .describe('"pass" when met, "fail" when not; a criterion with a check gets the server’s result'),
    evidence: z
      .string()
      .trim()
      .min(1)
      .max(5000)
      .optional()
      .describe('Where the evidence is: document and page, test run, quote'),
    device_id: deviceIdInput.optional(),
  },
  output: z.object({
    proof: z.object({
      id: z.uuid().describe('The evidence record id'),
      mission_id: z.uuid(),
      contract_version: z.int().min(1).describe('The contract version it counts for'),
      criterion_id: z.string(),
      result: z.enum(proofResults),
      checked: z.string().describe('What was checked and how'),
      evidence: z.string().nullable().describe('Where the evidence is, if given'),
      device_id: z.string().nullable().describe('The device it was recorded from'),
      recorded_by: z.string().describe('The agent that checked'),
      recorded_at: z.iso.datetime(),
    }),
    created: z.boolean().describe('false when the same proof was already recorded under this lease'),
    awaits_owner: z
      .boolean()
      .describe('true for a free-text criterion: it counts only once the owner confirms it in the console'),
  }),
  mutates: 'write',
  idempotencyKey: {
    describe: 'lease_id + criterion_id + result + checked + evidence + device_id',
    of: (input) =>
      `${input.lease_id}:${input.criterion_id}:${input.result}:${stableStringify([input.checked, input.evidence, input.device_id])}`,
  },
  async run({ ctx, input }) {
    return writeUnderLease(ctx, input.lease_id, async (tx, { lease, mission, contract }) => {
      const criterion = contract.criteria.find((c) => c.id === input.criterion_id);
      if (criterion === undefined) {
        throw new ToolError(
          'not_found',
          `Contract v${contract.version} has no criterion "${input.criterion_id}"`,
          {
            details: { criterion_id: input.criterion_id, criteria: contract.criteria.map((c) => c.id) },
            hint: `Use one of the criterion ids listed in details${ctx.holds('hai_get_contract') ? ' (hai_get_contract shows them)' : ''}.`,
          },
        );
      }
      await requireDevice(tx, ctx, mission.projectId, input.device_id);
      // A criterion with a check is judged by the server: its result and what it found are the evidence.
      const checked = criterion.check ? await runCheck(tx, criterion.check) : null;
      const result = checked === null ? input.result : checked.pass ? 'pass' : 'fail';
      if (result === undefined) throw invalidArg('result', 'required: this criterion has no server check');
      const evidence =
        checked === null
          ? (input.evidence ?? null)
          : `${criterion.check?.kind}: ${checked.detail}${input.evidence ? ` — ${input.evidence}` : ''}`;
      const proofSha256 = sha256Hex(
        stableStringify([input.criterion_id, input.checked, result, evidence, input.device_id ?? null]),
      );
      const { row, written } = await writtenOrExisting(
        tx
          .insert(haiEvidence)
          .values({
            id: crypto.randomUUID(),
            missionId: mission.id,
            contractVersion: contract.version,
            criterionId: criterion.id,
            leaseId: lease.id,
            checked: input.checked,
            result,
            evidence,
            deviceId: input.device_id ?? null,
            recordedBy: ctx.agent,
            recordedAt: ctx.now(),
            proofSha256,
          })
          .onConflictDoNothing()
          .returning(),
        () =>
          tx
            .select()
            .from(haiEvidence)
            .where(and(eq(haiEvidence.leaseId, lease.id), eq(haiEvidence.proofSha256, proofSha256))),
        'evidence row',
      );
      return ok(
        {
          proof: {
            id: row.id,
            mission_id: row.missionId,
            contract_version: row.contractVersion,
            criterion_id: row.criterionId,
            result: row.result,
            checked: row.checked,
            evidence: row.evidence,
            device_id: row.deviceId,
            recorded_by: row.recordedBy,
            recorded_at: row.recordedAt.toISOString(),
          },
          created: written,
          awaits_owner: criterion.check == null,
        },
        (written
          ? `Evidence for ${criterion.id} recorded (${row.result})`
          : 'This evidence was already recorded') +
          (checked === null
            ? '; the owner confirms this criterion in the console'
            : `; the server checked: ${checked.detail}`),
      );
    });
  },
});
