import { z } from 'zod';
import { ToolError } from './errors.ts';

/** The parameters the kernel adds to every owner-gated tool (docs/contract.md "Grants and gates"). */
export const ownerGateInput = {
  owner_ack: z.boolean().optional().describe('true only after the human owner approved this call'),
  reason: z.string().max(2000).optional().describe('The owner’s reason, audited'),
};

export interface OwnerAck {
  ack: boolean;
  reason: string | null;
}

/** What a gated call gave (trimmed), recorded in the audit log whether or not the gate lets it through. */
export function ownerAckOf(input: Record<string, unknown>): OwnerAck {
  const reason = typeof input.reason === 'string' ? input.reason.trim() : '';
  return { ack: input.owner_ack === true, reason: reason === '' ? null : reason };
}

/** Refuses a gated call without the owner's acknowledgement (as read by ownerAckOf). */
export function checkOwnerGate(tool: string, given: OwnerAck): void {
  if (!given.ack || given.reason === null) {
    throw new ToolError('owner_gate_required', `${tool} needs the owner's acknowledgement`, {
      details: {
        missing: [...(given.ack ? [] : ['owner_ack: true']), ...(given.reason === null ? ['reason'] : [])],
      },
      hint: 'Ask the human owner to approve; then call again with owner_ack: true and their reason. Never set owner_ack on your own.',
    });
  }
}
