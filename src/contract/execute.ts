import type * as z from 'zod';
import { auditLog } from '../db/schema/audit_log.ts';
import { enforceGovernance } from '../governance/enforce.ts';
import { errorText, withFields } from '../log.ts';
import { openApprovalGate, recordApprovalResult, releaseApproval } from './approvals.ts';
import { decodeArguments } from './decode.ts';
import type { ToolContext } from './define.ts';
import { type Envelope, errorEnvelope, type OkEnvelope, ToolResult } from './envelope.ts';
import { isToolError, ToolError } from './errors.ts';
import { checkOwnerGate, type OwnerAck, ownerAckOf, ownerActs, reasonOf } from './gates.ts';
import { acquireIdempotency, displayKey } from './idempotency.ts';
import { type CursorKey, openPage, type PageRequest } from './limits.ts';
import type { RateLimiter } from './rate_limit.ts';
import type { RegisteredTool } from './registry.ts';

const connectionCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EPIPE',
  'EHOSTUNREACH',
]);
const connectionMessages = [
  /connection terminated/i,
  /pglite is closed/i,
  /pool after calling end/i,
  /fetch failed/i,
  // The bounds of src/db/timeouts.ts: pg's connect and read timeouts, the key-value request's abort.
  /timeout exceeded when trying to connect/i,
  /connection timeout/i,
  /query read timeout/i,
  /aborted due to timeout/i,
];

/** True for failures of a backing store (connection refused, server shutting down), as opposed to bugs. */
export function isDependencyFailure(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 6; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (
        connectionCodes.has(code) ||
        code.startsWith('08') ||
        // Shut down, crashed, cannot connect now, too many connections; a statement cancelled by
        // statement_timeout (57014) and a transaction ended by idle_in_transaction_session_timeout (25P03).
        ['57P01', '57P02', '57P03', '53300', '57014', '25P03'].includes(code)
      ) {
        return true;
      }
    }
    // AbortSignal.timeout's DOMException (the key-value client's bound).
    if ((e as { name?: unknown }).name === 'TimeoutError') return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && connectionMessages.some((re) => re.test(message))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The one place errors become envelopes: internals go to the log, never to the caller. */
export function errorToEnvelope(
  error: unknown,
  ctx: Pick<ToolContext, 'requestId' | 'log'>,
  tool: string,
): Envelope {
  if (isToolError(error)) {
    if (error.code === 'dependency_unavailable') {
      ctx.log.warn('dependency unavailable', { tool, cause: errorText(error.cause ?? error.message) });
    }
    // Failures the team may have to look into carry the request id, as the log lines do.
    const details =
      error.code === 'dependency_unavailable'
        ? { ...error.details, request_id: ctx.requestId }
        : error.details;
    return errorEnvelope(error.code, error.message, { details, hint: error.hint });
  }
  if (isDependencyFailure(error)) {
    ctx.log.warn('dependency unavailable', { tool, cause: errorText(error) });
    return errorEnvelope(
      'dependency_unavailable',
      'A backing store is unreachable; nothing partial was written.',
      {
        details: { request_id: ctx.requestId },
      },
    );
  }
  ctx.log.error('internal error', {
    tool,
    // Never the query's parameters (errorText): they can hold a document's text.
    error: errorText(error, { stack: true }),
  });
  return errorEnvelope('internal', `Internal error (request ${ctx.requestId})`, {
    details: { request_id: ctx.requestId },
  });
}

export interface CallInput {
  tool: RegisteredTool;
  /**
   * Check every ok/empty result against the tool's output schema (and a page against its limit), turning a
   * mismatch into `internal`. The test suite turns it on; production trusts the types.
   */
  checkOutputs?: boolean;
  /** Raw arguments exactly as the client sent them (C3 decodes them here, before anything else). */
  args: unknown;
  ctx: ToolContext;
  /** The tools this agent is granted. */
  grants: ReadonlySet<string>;
  /** The agents granted each tool, so a refusal can say whom to hand the step to. */
  holders?: ReadonlyMap<string, readonly string[]>;
  rateLimiter?: RateLimiter;
  /** The console's base URL (…/console), named in approval-mode refusals so the agent can pass it on. */
  consoleUrl?: string;
  /** GOVERNANCE_ENFORCE is on: a mutating legal call on a case needs a lease (src/governance/enforce.ts). */
  enforceGovernance?: boolean;
}

/**
 * The request flow after tool lookup: grant → rate limit → decoding (C3) → governance (a lease on the case's
 * mission, when enforced) → gate (C7) → precheck → idempotency (C4) → run → envelope (C1) → audit row (C8).
 */
export async function callTool({
  tool,
  args,
  ctx,
  grants,
  rateLimiter,
  holders,
  checkOutputs = false,
  consoleUrl,
  enforceGovernance: enforced = false,
}: CallInput): Promise<Envelope> {
  // The owner principal (the console): their own call needs no approval, only their reason.
  const owner = ctx.owner;
  const { def } = tool;
  // Every line of the call, the tool's own included, names the tool (the guard has added the agent).
  ctx = { ...ctx, log: withFields(ctx.log, { tool: def.name }) };
  const started = Date.now();
  let key: string | null = null;
  let ack: OwnerAck | null = null;
  let envelope: Envelope;
  let replayed = false;
  let settling: Promise<void> | undefined;
  // The approval this call consumed (approval mode), given back if the call does not succeed.
  let consumed: string | undefined;
  // The same call already ran with this approval: its kept result, given again instead of running.
  let approvalReplay: OkEnvelope | undefined;
  let auditedApproval: unknown;
  try {
    if (!grants.has(def.name)) {
      const granted = holders?.get(def.name) ?? [];
      throw new ToolError('tool_not_granted', `Agent "${ctx.agent}" is not granted ${def.name}`, {
        details: { agent: ctx.agent, tool: def.name, granted_to: granted },
        hint:
          granted.length === 0
            ? 'No agent is granted this tool; ask the owner to change the grants.'
            : `Hand this step to ${granted.join(' or ')}, which ${granted.length === 1 ? 'holds' : 'hold'} ${def.name}.`,
      });
    }
    if (def.ownerOnly === true && owner === undefined) {
      throw new ToolError(
        'tool_not_granted',
        `${def.name} is the owner's, in the console; no agent calls it`,
        {
          details: { agent: ctx.agent, tool: def.name, granted_to: [] },
          hint: 'Ask the human owner to do this in the console.',
        },
      );
    }
    const wait = rateLimiter?.take(ctx.agent);
    if (wait !== undefined && wait > 0) {
      throw new ToolError('rate_limited', `Too many calls from agent "${ctx.agent}"`, {
        details: { retry_after_ms: wait },
      });
    }
    // Approval mode: owner_ack is the agent's own word, which opens nothing here. It is taken out (and
    // said so in the refusal) rather than refused as unknown, so the call still leaves a request for the owner.
    const claimsAck =
      tool.gate === 'approval' && typeof args === 'object' && args !== null && 'owner_ack' in args;
    const input = decodeArguments(tool.plan, claimsAck ? withoutKey(args, 'owner_ack') : args);
    auditedApproval = input.approval_id;
    // Before the gate: a call the mission refuses must not leave an approval request for the owner.
    if (enforced) await enforceGovernance(ctx, def, input);
    // Only gated tools pay for the gate: no query, no allocation for the others.
    if (tool.gate !== null && def.ownerGate) {
      const applies = def.ownerGate === true || def.ownerGate(input);
      // Recorded in the audit row even when the gate refuses: an attempt is worth knowing about.
      if (owner !== undefined) {
        ack = { ack: applies, reason: reasonOf(input), owner: owner.name };
        if (applies) ack = ownerActs(def.name, owner.name, input);
      } else if (tool.gate === 'approval') {
        ack = { ack: false, reason: reasonOf(input) };
        if (applies) {
          const opened = await openApprovalGate(ctx, def.name, input, ack, { consoleUrl, claimsAck });
          ack = opened.ack;
          if (opened.replay !== undefined) approvalReplay = opened.replay;
          else consumed = ack.approvalId ?? undefined;
        }
      } else {
        ack = ownerAckOf(input);
        if (applies) checkOwnerGate(def.name, ack);
      }
    }
    if (approvalReplay !== undefined) {
      // Nothing runs and nothing is stored again: the answer is the first call's, as the audit row says.
      replayed = true;
      envelope = approvalReplay;
      if (def.idempotencyKey !== undefined) key = def.idempotencyKey.of(input);
    } else {
      def.precheck?.(input);
      if (def.mutates !== false && def.idempotencyKey !== undefined) {
        key = def.idempotencyKey.of(input);
        const slot = await acquireIdempotency(
          ctx.kv,
          // The approval is the gate's token, not part of the operation: a later approved repeat replays.
          { agent: ctx.agent, tool: def.name, key, args: withoutApproval(input) },
          { replay: def.setSemantics !== true },
        );
        if (slot.replay !== undefined) {
          replayed = true;
          envelope = slot.replay;
        } else {
          envelope = await runTool(tool, input, ctx, ack, checkOutputs);
          // Settled before the response (a prompt retry must find the result), alongside the audit write.
          settling = slot.settle(envelope);
        }
      } else {
        envelope = await runTool(tool, input, ctx, ack, checkOutputs);
      }
    }
  } catch (e) {
    envelope = errorToEnvelope(e, ctx, def.name);
  }
  if (consumed !== undefined && !envelope.ok) {
    // The approval opened the gate but the call did not happen: the owner's approval still stands.
    await releaseApproval(ctx, consumed).catch((e: unknown) =>
      ctx.log.error('approval release failed', { tool: def.name, error: errorText(e) }),
    );
  } else if (consumed !== undefined) {
    // Kept before the response, so a retry after a lost answer replays it rather than hearing approval_used.
    await recordApprovalResult(ctx, consumed, envelope).catch((e: unknown) =>
      ctx.log.error('approval result not kept', { tool: def.name, error: errorText(e) }),
    );
  }
  const durationMs = Date.now() - started;
  if (def.mutates !== false) {
    // An owner-only tool deciding an approval (approval_review) links its audit row to the request.
    const approvalId =
      ack?.approvalId ??
      (def.ownerOnly === true && typeof auditedApproval === 'string' ? auditedApproval : null);
    await Promise.all([
      settling,
      writeAudit(ctx, def.name, { key, ack, approvalId, envelope, replayed, durationMs }),
    ]);
  }
  ctx.log.info('tool call', {
    status: envelope.status,
    ...(envelope.ok ? {} : { code: envelope.error.code }),
    ...(replayed ? { replayed } : {}),
    duration_ms: durationMs,
  });
  return envelope;
}

const withoutKey = (obj: object, key: string): Record<string, unknown> =>
  Object.fromEntries(Object.entries(obj).filter(([k]) => k !== key));

const withoutApproval = (input: Record<string, unknown>): Record<string, unknown> =>
  input.approval_id === undefined ? input : withoutKey(input, 'approval_id');

async function runTool(
  tool: RegisteredTool,
  args: Record<string, unknown>,
  ctx: ToolContext,
  gate: OwnerAck | null,
  checkOutputs: boolean,
): Promise<Envelope> {
  const { def } = tool;
  try {
    const { page, rest } = def.pages ? openPage(def.name, def.pages, args) : { page: undefined, rest: args };
    // The erased definition types `page` for a paging tool; a tool without `pages` is typed to get undefined.
    const out = await def.run({ ctx, input: rest, gate, page: page as PageRequest<CursorKey> });
    const result = out instanceof ToolResult ? out : undefined;
    const data: unknown = result === undefined ? out : result.data;
    const items = page === undefined ? undefined : (data as { items?: unknown[] }).items;
    // A page without items is "empty" unless the tool said otherwise.
    const status = result?.status ?? (items?.length === 0 ? 'empty' : 'ok');
    if (checkOutputs) checkOutput(tool, data, page?.limit);
    return { ok: true, status, data, message: result?.message ?? defaultMessage(def.name, status, items) };
  } catch (e) {
    return errorToEnvelope(e, ctx, def.name);
  }
}

/** Test-suite check: the result is what the tool advertises, and a page holds no more than its limit. */
function checkOutput(tool: RegisteredTool, data: unknown, limit: number | undefined): void {
  const parsed = (tool.def.output as z.ZodType).safeParse(data);
  const issues = parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  const items = (data as { items?: unknown[] } | null)?.items;
  if (limit !== undefined && Array.isArray(items) && items.length > limit) {
    issues.push(`items: ${items.length} items on a page of limit ${limit}`);
  }
  if (issues.length > 0) {
    throw new Error(`${tool.def.name} returned data that breaks its output schema: ${issues.join('; ')}`);
  }
}

const defaultMessage = (name: string, status: 'ok' | 'empty', items: unknown[] | undefined) => {
  if (items !== undefined) return status === 'empty' ? 'Nothing matches' : `${items.length} item(s)`;
  return status === 'ok' ? `${name} succeeded` : `${name} found nothing`;
};

async function writeAudit(
  ctx: ToolContext,
  tool: string,
  r: {
    key: string | null;
    ack: OwnerAck | null;
    approvalId: string | null;
    envelope: Envelope;
    replayed: boolean;
    durationMs: number;
  },
): Promise<void> {
  try {
    await ctx.db.insert(auditLog).values({
      agent: ctx.agent,
      tool,
      idempotencyKey: r.key === null ? null : displayKey(r.key),
      outcome: r.replayed ? 'replayed' : r.envelope.status,
      errorCode: r.envelope.ok ? null : r.envelope.error.code,
      durationMs: r.durationMs,
      requestId: ctx.requestId,
      ownerAck: r.ack?.ack ?? null,
      ownerReason: r.ack?.reason ?? null,
      approvalId: r.approvalId,
    });
  } catch (e) {
    // The call's effect already happened; losing its audit row must not turn success into failure.
    ctx.log.error('audit write failed', { tool, error: errorText(e) });
  }
}
