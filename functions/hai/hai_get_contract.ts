import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { ok } from '../../src/contract/envelope.ts';
import { missionStates } from '../../src/db/schema/hai.ts';
import { contractOutput, contractView } from '../../src/governance/contracts.ts';
import { leaseIdInput, readLease } from '../../src/governance/leases.ts';
import { loadContract } from '../../src/governance/missions.ts';

export const hai_get_contract = defineTool({
  name: 'hai_get_contract',
  title: 'Read the contract your session works under',
  description:
    'Reads your session’s contract: goal, scope, acceptance criteria with how each is verified, ' +
    'expiry and session cap. Call it at the start of every session and after a lease error.',
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
