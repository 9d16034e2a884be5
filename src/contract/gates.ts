import * as z from 'zod';
import { ToolError } from './errors.ts';

/**
 * How an owner gate opens (docs/contract.md "Grants and gates"), one setting per deployment (OWNER_GATE):
 * - 'ack': the calling agent passes `owner_ack: true` and the owner's reason: a promise, recorded;
 * - 'approval': the owner approves the very call in the console; the agent repeats it with `approval_id`.
 */
export const ownerGateModes = ['ack', 'approval'] as const;
export type OwnerGateMode = (typeof ownerGateModes)[number];

/** The parameters the kernel adds to every owner-gated tool, per mode. */
export const ownerGateInput = {
  ack: {
    owner_ack: z.boolean().optional().describe('true only after the human owner approved this call'),
    reason: z.string().max(2000).optional().describe('The owner’s reason, audited'),
  },
  approval: {
    approval_id: z.uuid().optional().describe('The approval of this call'),
    reason: z.string().max(2000).optional().describe('Why you ask (the owner reads it)'),
  },
} as const satisfies Record<OwnerGateMode, z.ZodRawShape>;

/** Every name the gate adds in either mode: not part of the operation (the approval's argument hash). */
export const gateParamNames: ReadonlySet<string> = new Set(['owner_ack', 'reason', 'approval_id']);

/**
 * What opened (or tried to open) a gate, recorded in the audit row whether or not the gate let the call
 * through, and handed to the tool as `gate`: `reason` is the owner's reason once the gate is open.
 */
export interface OwnerAck {
  ack: boolean;
  reason: string | null;
  /** Approval mode: the approval request the call used (or created, when refused). */
  approvalId?: string | null;
  /** The owner who decided: the approver, or the owner calling from the console. */
  owner?: string | null;
}

const trimmed = (v: unknown): string | null => {
  const s = typeof v === 'string' ? v.trim() : '';
  return s === '' ? null : s;
};

/** Ack mode: what a gated call gave (trimmed). */
export function ownerAckOf(input: Record<string, unknown>): OwnerAck {
  return { ack: input.owner_ack === true, reason: trimmed(input.reason) };
}

/** The `reason` argument, trimmed (the agent's in approval mode, the owner's own in the console). */
export const reasonOf = (input: Record<string, unknown>): string | null => trimmed(input.reason);

/** Ack mode: refuses a gated call without the owner's acknowledgement (as read by ownerAckOf). */
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

/** The owner acting in the console is the owner: the gate asks only for their reason. */
export function ownerActs(tool: string, owner: string, input: Record<string, unknown>): OwnerAck {
  const reason = reasonOf(input);
  if (reason === null) {
    throw new ToolError('owner_gate_required', `${tool} needs your reason`, {
      details: { missing: ['reason'] },
      hint: 'Write the reason for this decision; it is kept in the audit log.',
    });
  }
  return { ack: true, reason, owner };
}
