/**
 * The error catalogue (docs/contract.md "Error codes"): every code a tool result can carry, with the HTTP status the
 * plain JSON route uses, whether a retry can succeed, and the recovery hint shown when a tool gives none.
 */
export const errorCatalogue = {
  invalid_args: { http: 400, retryable: false, hint: 'Fix the arguments named in details and call again.' },
  not_found: { http: 404, retryable: false, hint: 'Check the id; list the family to find existing ones.' },
  tool_not_granted: {
    http: 403,
    retryable: false,
    hint: 'This agent is not granted the tool; hand the step to an agent that is, or ask the owner to change the grants.',
  },
  owner_gate_required: {
    http: 403,
    retryable: false,
    hint: 'Ask the human owner. Approval mode: the owner decides the request in details.approval_id in the console; then repeat the call with that approval_id. Ack mode: call again with owner_ack: true and their reason only after they approved.',
  },
  approval_pending: {
    http: 409,
    retryable: true,
    hint: 'The owner has not decided yet; ask them to open details.console_url, then repeat the call.',
  },
  approval_rejected: {
    http: 403,
    retryable: false,
    hint: 'The owner rejected this call (details.decision_reason); do not repeat it. Change the plan, or ask again with new arguments.',
  },
  approval_expired: {
    http: 403,
    retryable: false,
    hint: 'The approval ran out before it was used; call again without approval_id to ask the owner anew.',
  },
  approval_used: {
    http: 409,
    retryable: true,
    hint: 'The call this approval opened has not finished yet: wait a moment and repeat the same call with the same approval_id to get its result (a finished call is replayed). Do not ask the owner again for the same call.',
  },
  approval_mismatch: {
    http: 403,
    retryable: false,
    hint: 'The approval is for another tool or other arguments (details say which); repeat exactly the approved call, or call without approval_id to ask for this one.',
  },
  in_progress: {
    http: 409,
    retryable: true,
    hint: 'The same call is still running; wait a moment and retry with the same arguments.',
  },
  idempotency_key_reuse: {
    http: 422,
    retryable: false,
    hint: 'This key was already used with different arguments; reuse the original arguments or use a new key.',
  },
  invalid_state: {
    http: 409,
    retryable: false,
    hint: 'The object is not in a state that allows this; read it first and follow the details.',
  },
  payload_too_large: { http: 413, retryable: false, hint: 'Send a smaller request.' },
  unsupported_media_type: { http: 415, retryable: false, hint: 'Send a supported content type.' },
  rate_limited: { http: 429, retryable: true, hint: 'Slow down; retry after details.retry_after_ms.' },
  dependency_unavailable: {
    http: 503,
    retryable: true,
    hint: 'A backing store is unreachable and nothing partial was written; retry shortly with the same arguments.',
  },
  internal: {
    http: 500,
    retryable: true,
    hint: 'Unexpected server error; retry once, then report the request id to the team.',
  },
  // Refusals of the HTTP layer before any tool runs (src/http/errors.ts says how they are sent).
  invalid_request: {
    http: 400,
    retryable: false,
    hint: 'Send one JSON-RPC message that MCP defines (or a batch of them), with a supported MCP-Protocol-Version.',
  },
  unauthorized: {
    http: 401,
    retryable: false,
    hint: 'Send Authorization: Bearer <token> with a token minted for an agent (npm run token -- <agent>).',
  },
  origin_not_allowed: {
    http: 403,
    retryable: false,
    hint: 'Call without an Origin header (non-browser clients) or from an origin listed in ALLOWED_ORIGINS.',
  },
  host_not_allowed: {
    http: 403,
    retryable: false,
    hint: 'Call the server by a host name listed in ALLOWED_HOSTS (on loopback without it: localhost, 127.0.0.1 or [::1]).',
  },
  route_not_found: {
    http: 404,
    retryable: false,
    hint: 'The routes are POST /mcp, POST /v1/tools/<name>, GET /v1/tools, GET /healthz and POST /worker/drain.',
  },
  method_not_allowed: {
    http: 405,
    retryable: false,
    hint: 'The MCP endpoint takes POST only: it is stateless, with no GET stream and no session to DELETE.',
  },
  not_acceptable: {
    http: 406,
    retryable: false,
    hint: 'Send Accept: application/json, text/event-stream.',
  },
  misconfigured: {
    http: 500,
    retryable: false,
    hint: 'A server setting is missing or invalid (the message names it); retrying will not help until the operator fixes it.',
  },
  path_outside_root: {
    http: 400,
    retryable: false,
    hint: 'Use an allowed artifact name inside the project.',
  },
  missing_project: { http: 404, retryable: false, hint: 'Bind the project first.' },
  max_active_lanes: { http: 409, retryable: false, hint: 'Park a lane before focusing another.' },
  no_proposal: { http: 409, retryable: false, hint: 'Propose a next step first.' },
  active_mission_exists: { http: 409, retryable: false, hint: 'Close the active mission first.' },
  mission_not_active: { http: 409, retryable: false, hint: 'Open or pick an active mission.' },
  contract_version_mismatch: {
    http: 409,
    retryable: false,
    hint: 'Read the current contract and call again with its version.',
  },
  lease_expired: { http: 401, retryable: false, hint: 'Authorize a new session.' },
  lease_revoked: {
    http: 401,
    retryable: false,
    hint: 'The contract changed; read it and authorize a new session.',
  },
  review_required: {
    http: 409,
    retryable: false,
    hint: 'Record passing evidence for the listed criteria first.',
  },
  parallel_session_denied: {
    http: 409,
    retryable: true,
    hint: 'The contract allows no more parallel sessions; wait for one to end.',
  },
  device_mount_required: { http: 409, retryable: false, hint: 'Bind the project on this device first.' },
  // Missions that govern the legal work (GOVERNANCE_ENFORCE on, src/governance/enforce.ts).
  lease_required: {
    http: 403,
    retryable: false,
    hint: 'This change to a case needs your live session lease on the case’s active mission: take one with hai_authorize_session (the mission and contract version are in details; without a mission, the ceo opens one with hai_open_mission and case_id), then repeat the call.',
  },
  activity_out_of_scope: {
    http: 403,
    retryable: false,
    hint: 'The mission’s contract does not cover this activity (details.activity): do not do it now; park it with hai_park_item, or ask the owner to widen the contract with a recontract (hai_recontract).',
  },
} as const satisfies Record<string, { http: number; retryable: boolean; hint: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[];

export interface ToolErrorOptions {
  details?: Record<string, unknown>;
  hint?: string;
  cause?: unknown;
}

/** The one error a tool throws; the kernel turns it into the error envelope. */
export class ToolError extends Error {
  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;
  readonly hint?: string;

  constructor(code: ErrorCode, message: string, options: ToolErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ToolError';
    this.code = code;
    this.details = options.details;
    this.hint = options.hint;
  }
}

export const isToolError = (e: unknown): e is ToolError => e instanceof ToolError;

/** One problem with one argument: `path` names the parameter (dotted for nested fields). */
export interface ArgIssue {
  path: string;
  message: string;
}

/**
 * `invalid_args` for several problems at once, in the one detail shape every caller sees:
 * `{ issues: [{ path, message }] }` (docs/contract.md "Arguments").
 */
export function invalidArgs(
  issues: readonly ArgIssue[],
  hint?: string,
  more: { message?: string; details?: Record<string, unknown> } = {},
): ToolError {
  return new ToolError(
    'invalid_args',
    more.message ?? `Invalid arguments: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    { details: { issues: [...issues], ...more.details }, ...(hint === undefined ? {} : { hint }) },
  );
}

/**
 * The fields an action-shaped tool (`action` plus fields that belong to some actions) was given, and the issues
 * of that shape: a field the action needs and did not get, a field it does not use. The tool adds its own rules
 * to `issues`, then throws `actionArgs` when there are any.
 */
export function actionFieldIssues<A extends string>(
  input: Readonly<Record<string, unknown>> & { action: A },
  fields: readonly string[],
  needs: Readonly<Record<A, readonly string[]>>,
  optional: Readonly<Record<A, readonly string[]>>,
): { given: Set<string>; allowed: Set<string>; issues: ArgIssue[] } {
  const given = new Set(fields.filter((f) => input[f] !== undefined));
  const need = needs[input.action];
  const allowed = new Set([...need, ...optional[input.action]]);
  const issues = [
    ...need.filter((f) => !given.has(f)).map((path) => ({ path, message: `required for ${input.action}` })),
    ...[...given]
      .filter((f) => !allowed.has(f))
      .map((path) => ({ path, message: `not used by ${input.action}` })),
  ];
  return { given, allowed, issues };
}

/** The `invalid_args` of actionFieldIssues' issues, its hint naming what the action takes. */
export const actionArgs = (action: string, issues: readonly ArgIssue[], allowed: ReadonlySet<string>) =>
  invalidArgs(issues, `Action ${action} takes ${[...allowed].join(', ')}.`);

/** `invalid_args` for one parameter. */
export const invalidArg = (path: string, message: string, hint?: string): ToolError =>
  invalidArgs([{ path, message }], hint);

/**
 * Exactly one row, or an internal error: for statements that must return one (an insert … returning, an
 * update of a row the call has locked). A miss here is a bug, never the caller's mistake.
 */
export function one<T>(rows: readonly T[], what: string): T {
  const [row] = rows;
  if (row === undefined || rows.length !== 1) throw new Error(`${what} returned ${rows.length} rows, not 1`);
  return row;
}
