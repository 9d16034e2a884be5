// The owner gate in approval mode (docs/contract.md "Grants and gates"): a gated call without an approval is
// refused and leaves an approval request for the owner; an approved request opens the gate once, for the agent
// that asked, for the same tool and arguments, before it expires. The call's result is kept with the approval:
// the same agent repeating the same call with it gets that result again (a replay), never a second effect. The
// owner decides in the console (src/owner/approvals.ts); nothing here can be reached by an agent's arguments
// except the request id.
import { and, desc, eq, gt, isNotNull, or, sql } from '../db/orm.ts';
import { type OwnerApprovalRow, ownerApprovals } from '../db/schema/owners.ts';
import type { ToolContext } from './define.ts';
import type { Envelope, OkEnvelope } from './envelope.ts';
import { ToolError } from './errors.ts';
import { gateParamNames, type OwnerAck, reasonOf } from './gates.ts';
import { sha256Hex, stableStringify } from './hash.ts';

/** How long an approval stays good after the owner grants it. */
export const APPROVAL_TTL_MS = 24 * 60 * 60 * 1000;

/** The call's own arguments: the decoded input without the gate's parameters. */
export function callArguments(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) if (!gateParamNames.has(k) && v !== undefined) out[k] = v;
  return out;
}

/** What an approval is bound to: the tool and its arguments, hashed in a key-order-independent form. */
export const callHash = (tool: string, args: Record<string, unknown>): string =>
  sha256Hex(stableStringify({ tool, args }));

/** Where the owner decides one request (console routes, src/console/). */
export const approvalUrl = (consoleUrl: string | undefined, id: string): string | undefined =>
  consoleUrl === undefined ? undefined : `${consoleUrl.replace(/\/+$/, '')}/approvals/${id}`;

type Ctx = Pick<ToolContext, 'db' | 'agent' | 'requestId' | 'now'>;

/** The gate opened for this call (`ack`, handed to the tool), or the approval's call already ran: its result. */
export type GateOpening = { ack: OwnerAck; replay?: undefined } | { ack: OwnerAck; replay: OkEnvelope };

/**
 * Opens the gate for a gated call in approval mode, or throws why not. `record` is the audit record of the
 * call: it learns the approval request's id even when the gate refuses, so the audit row links to it. When
 * the approval was already used by this agent for this very call and its result was kept, the answer is that
 * result to replay instead of an open gate.
 */
export async function openApprovalGate(
  ctx: Ctx,
  tool: string,
  input: Record<string, unknown>,
  record: OwnerAck,
  options: { consoleUrl?: string | undefined; claimsAck?: boolean } = {},
): Promise<GateOpening> {
  const { consoleUrl } = options;
  const args = callArguments(input);
  const hash = callHash(tool, args);
  const approvalId = typeof input.approval_id === 'string' ? input.approval_id : undefined;
  if (approvalId === undefined) {
    const reason = reasonOf(input);
    if (reason === null) {
      throw new ToolError('owner_gate_required', `${tool} needs the owner's approval; say why you ask`, {
        details: { missing: ['reason'] },
        hint: 'Call again with reason: why this call is needed, in a sentence the owner will read. The refusal then gives the approval request for the owner.',
      });
    }
    const request = await findOrRequest(ctx, { tool, args, hash, reason });
    record.approvalId = request.id;
    throw gateRefusal(tool, request, consoleUrl, options.claimsAck === true);
  }
  record.approvalId = approvalId;
  const now = ctx.now();
  /** This approval, for this agent, this tool and these arguments. */
  const sameCall = and(
    eq(ownerApprovals.id, approvalId),
    eq(ownerApprovals.agent, ctx.agent),
    eq(ownerApprovals.tool, tool),
    eq(ownerApprovals.argsSha256, hash),
  );
  // One statement decides and consumes: two retries racing with one approval cannot both get through.
  const used = await ctx.db
    .update(ownerApprovals)
    .set({ state: 'used', usedAt: now, usedRequestId: ctx.requestId })
    .where(and(sameCall, eq(ownerApprovals.state, 'approved'), gt(ownerApprovals.expiresAt, now)))
    .returning({ reason: ownerApprovals.decisionReason, owner: ownerApprovals.decidedByName });
  const row = used[0];
  if (row !== undefined) return { ack: { ack: true, reason: row.reason, approvalId, owner: row.owner } };
  const done = (
    await ctx.db
      .select({
        result: ownerApprovals.result,
        reason: ownerApprovals.decisionReason,
        owner: ownerApprovals.decidedByName,
      })
      .from(ownerApprovals)
      .where(and(sameCall, eq(ownerApprovals.state, 'used'), isNotNull(ownerApprovals.result)))
      .limit(1)
  )[0];
  if (done?.result !== undefined && done.result !== null) {
    // Only recordApprovalResult writes the column, always with an ok envelope.
    const first = done.result as unknown as OkEnvelope;
    return {
      ack: { ack: true, reason: done.reason, approvalId, owner: done.owner },
      replay: { ...first, replayed: true },
    };
  }
  throw await whyNot(ctx, tool, hash, approvalId, consoleUrl);
}

/**
 * Keeps the result of the call that used the approval, for the same call repeated with it (a retry after a
 * lost response). Only a success is kept: a failed call gives the approval back (releaseApproval).
 */
export async function recordApprovalResult(ctx: Ctx, approvalId: string, envelope: Envelope): Promise<void> {
  if (!envelope.ok) return;
  const { replayed: _replayed, ...first } = envelope;
  await ctx.db
    .update(ownerApprovals)
    .set({ result: first as unknown as Record<string, unknown> })
    .where(
      and(
        eq(ownerApprovals.id, approvalId),
        eq(ownerApprovals.state, 'used'),
        eq(ownerApprovals.usedRequestId, ctx.requestId),
      ),
    );
}

/**
 * Gives a consumed approval back when the call it opened did not succeed (a refusal of the tool, a store
 * that failed): the owner approved the call, and the call has not happened yet.
 */
export async function releaseApproval(ctx: Ctx, approvalId: string): Promise<void> {
  await ctx.db
    .update(ownerApprovals)
    .set({ state: 'approved', usedAt: null, usedRequestId: null })
    .where(
      and(
        eq(ownerApprovals.id, approvalId),
        eq(ownerApprovals.state, 'used'),
        eq(ownerApprovals.usedRequestId, ctx.requestId),
      ),
    );
}

type Request = Pick<OwnerApprovalRow, 'id' | 'state' | 'expiresAt'>;

/** The open request for this call (pending, or approved and unused), else a new pending one. */
async function findOrRequest(
  ctx: Ctx,
  call: { tool: string; args: Record<string, unknown>; hash: string; reason: string },
): Promise<Request> {
  const existing = async () =>
    (
      await ctx.db
        .select({ id: ownerApprovals.id, state: ownerApprovals.state, expiresAt: ownerApprovals.expiresAt })
        .from(ownerApprovals)
        .where(
          and(
            eq(ownerApprovals.agent, ctx.agent),
            eq(ownerApprovals.tool, call.tool),
            eq(ownerApprovals.argsSha256, call.hash),
            or(
              eq(ownerApprovals.state, 'pending'),
              and(eq(ownerApprovals.state, 'approved'), gt(ownerApprovals.expiresAt, ctx.now())),
            ),
          ),
        )
        // An approved request is what the agent needs to hear about first.
        .orderBy(sql`${ownerApprovals.state} = 'approved' desc`, desc(ownerApprovals.requestedAt))
        .limit(1)
    )[0];
  const found = await existing();
  if (found !== undefined) return found;
  const inserted = await ctx.db
    .insert(ownerApprovals)
    .values({
      id: crypto.randomUUID(),
      tool: call.tool,
      agent: ctx.agent,
      args: call.args,
      argsSha256: call.hash,
      agentReason: call.reason,
      state: 'pending',
      requestedAt: ctx.now(),
      requestId: ctx.requestId,
    })
    // A concurrent identical refusal created it first (the partial unique index on pending requests).
    .onConflictDoNothing()
    .returning({ id: ownerApprovals.id, state: ownerApprovals.state, expiresAt: ownerApprovals.expiresAt });
  const created = inserted[0] ?? (await existing());
  if (created === undefined) throw new Error(`approval request for ${call.tool} vanished after a conflict`);
  return created;
}

function gateRefusal(
  tool: string,
  request: Request,
  consoleUrl: string | undefined,
  claimsAck: boolean,
): ToolError {
  const url = approvalUrl(consoleUrl, request.id);
  const details = {
    approval_id: request.id,
    state: request.state,
    ...(url === undefined ? {} : { console_url: url }),
    // owner_ack was sent: it opens nothing in approval mode, and the refusal says so.
    ...(claimsAck ? { ignored: ['owner_ack'] } : {}),
  };
  if (request.state === 'approved') {
    return new ToolError(
      'owner_gate_required',
      `The owner approved this ${tool} call; repeat it with the approval`,
      {
        details: { ...details, expires_at: request.expiresAt?.toISOString() },
        hint: `Repeat the same call with approval_id: "${request.id}" (once, before it expires).`,
      },
    );
  }
  return new ToolError(
    'owner_gate_required',
    `${tool} needs the owner's approval: request ${request.id} is waiting`,
    {
      details,
      hint: `Tell the owner that request ${request.id} waits for them in the console${url === undefined ? '' : ` (${url})`}. Once they approve, repeat the same call with approval_id: "${request.id}". Never reuse an approval for another call.`,
    },
  );
}

/** The refusal for an approval that did not open the gate, by what is wrong with it. */
async function whyNot(
  ctx: Ctx,
  tool: string,
  hash: string,
  approvalId: string,
  consoleUrl: string | undefined,
): Promise<ToolError> {
  const row = (
    await ctx.db.select().from(ownerApprovals).where(eq(ownerApprovals.id, approvalId)).limit(1)
  )[0];
  // Another agent's approval is as unknown to this agent as one that does not exist.
  if (row === undefined || row.agent !== ctx.agent) {
    return new ToolError('not_found', `No approval ${approvalId} for agent "${ctx.agent}"`, {
      details: { approval_id: approvalId },
      hint: 'Call again without approval_id to ask the owner; the refusal gives your approval request.',
    });
  }
  const details = { approval_id: row.id };
  if (row.tool !== tool || row.argsSha256 !== hash) {
    return new ToolError('approval_mismatch', `Approval ${row.id} was given for another call`, {
      details: { ...details, approved_tool: row.tool, approved_arguments: row.args },
    });
  }
  switch (row.state) {
    case 'pending': {
      const url = approvalUrl(consoleUrl, row.id);
      return new ToolError('approval_pending', `The owner has not decided request ${row.id} yet`, {
        details: { ...details, ...(url === undefined ? {} : { console_url: url }) },
      });
    }
    case 'rejected':
      return new ToolError('approval_rejected', `The owner rejected request ${row.id}`, {
        details: { ...details, decision_reason: row.decisionReason, decided_by: row.decidedByName },
      });
    case 'used':
      // Used, and no result kept (yet): the call that used it is still running, or ended before it could be
      // kept. The same call repeated a moment later replays its result; asking the owner again is not needed.
      return new ToolError(
        'approval_used',
        `Approval ${row.id} was already used by a call that has not finished`,
        {
          details: { ...details, used_at: row.usedAt?.toISOString() },
          hint: `The first call with approval ${row.id} is still running: wait a moment and repeat the same call with the same approval_id to get its result. Do not ask the owner again for this call.`,
        },
      );
    case 'approved':
      return new ToolError('approval_expired', `Approval ${row.id} expired before it was used`, {
        details: { ...details, expired_at: row.expiresAt?.toISOString() },
      });
  }
}
