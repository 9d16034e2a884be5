import { z } from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { missionStates } from '../../src/db/schema/hai.ts';
import { contractOutput, contractView } from './_contracts.ts';
import { leaseIdInput, readLease } from './_leases.ts';
import { loadContract } from './_missions.ts';

export const hai_get_contract = defineTool({
  name: 'hai_get_contract',
  title: 'Read the contract your session works under',
  description:
    'Reads the contract of your session lease: goal, activities in and out of scope, acceptance criteria ' +
    'with how each is verified, expiry and session cap. Needs a valid lease: lease_revoked when the contract ' +
    'changed or the mission closed (authorize again on the new version), lease_expired when its time is up. ' +
    'Read-only; call it at the start of every session and after any lease error.',
  input: { lease_id: leaseIdInput },
  output: z.object({
    mission: z.object({
      id: z.uuid().describe('The mission id'),
      name: z.string().describe('Its short unique name'),
      title: z.string().describe('What the mission is, for people'),
      project_id: z.string().nullable().describe('The project it works on (proof then needs a bound device)'),
      state: z.enum(missionStates).describe('Always active here: a closed mission revokes its leases'),
    }),
    contract: contractOutput,
    lease: z.object({
      lease_id: z.uuid().describe('Your lease'),
      expires_at: z.iso.datetime().describe('When it expires'),
    }),
  }),
  mutates: false,
  async run({ ctx, input }) {
    const { lease, mission } = await readLease(ctx, input.lease_id);
    const contract = await loadContract(ctx.db, mission.id, lease.contractVersion);
    return ok({
      mission: {
        id: mission.id,
        name: mission.name,
        title: mission.title,
        project_id: mission.projectId,
        state: mission.state,
      },
      contract: contractView(contract),
      lease: { lease_id: lease.id, expires_at: lease.expiresAt.toISOString() },
    });
  },
});
