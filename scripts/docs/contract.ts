// The generated blocks of docs/contract.md: the verb list and the error-code table, from the kernel, spliced
// between marker comments (scripts/docs/docs.ts writes them).
import { type ErrorCode, errorCatalogue, errorCodes } from '../../src/contract/errors.ts';
import { toolVerbs } from '../../src/contract/naming.ts';

/**
 * When each code happens, in words. Typed by the catalogue's codes, so a new code does not compile until it
 * is explained here (and then appears in the table).
 */
export const errorWhen: Record<ErrorCode, string> = {
  invalid_args:
    'The arguments do not fit the tool: a wrong type or bound, an unknown name (with did-you-mean), a missing required parameter, a cursor from another list, a body that is not JSON. `details.issues` lists each problem.',
  not_found:
    'An object named by id does not exist, is deleted or belongs elsewhere (see "Grants and gates", reachability); on the plain JSON route also an unknown tool name.',
  tool_not_granted:
    'The calling agent is not granted the tool; `details.granted_to` names the agents that are.',
  owner_gate_required:
    'An owner-gated call came without what opens the gate. Approval mode: no `approval_id`; the refusal creates (or finds) the approval request, and `details` give `approval_id`, `state` and `console_url` (without a `reason`, none is created and `details.missing` says so). Ack mode: no `owner_ack: true` or no non-empty `reason`; `details.missing` says which.',
  approval_pending:
    'Approval mode: the `approval_id` names a request the owner has not decided yet; `details.console_url` is where they decide it.',
  approval_rejected:
    'Approval mode: the owner rejected the request; `details.decision_reason` is their reason.',
  approval_expired: 'Approval mode: the approval was granted but not used before `details.expired_at`.',
  approval_used:
    'Approval mode: the approval already opened the gate (`details.used_at`) for a call that has not finished yet, so there is no result to replay; the same call repeated once it finished replays that result.',
  approval_mismatch:
    'Approval mode: the approval was granted for another tool or for other arguments than this call sends (`details.approved_tool`, `details.approved_arguments`).',
  in_progress:
    'The same mutating call (same agent, tool and natural key) is still running; retry after `details.retry_after_ms`.',
  idempotency_key_reuse:
    'A natural key already used with other arguments: the same case number with other details, a stored call repeated with different arguments.',
  invalid_state:
    'The object exists but its state forbids the action: an archived case, a document whose text is not ready, a proposal that is not the one waiting.',
  payload_too_large:
    'The request body is over the cap (before parsing), or a file or text is over its size limit.',
  unsupported_media_type:
    'The body is not sent as JSON, or an uploaded file is not a supported type (or not the type it claims to be).',
  rate_limited: 'The agent exceeded its call rate; retry after `details.retry_after_ms`.',
  dependency_unavailable:
    'The database or the key-value store is unreachable; nothing partial was written. Carries the request id.',
  internal: 'An unexpected failure; the detail is in the server log under the request id the error carries.',
  invalid_request:
    'On /mcp: the body is not a JSON-RPC message MCP defines, or the MCP-Protocol-Version header is not supported (the MCP SDK refuses it before any tool runs).',
  unauthorized:
    'No bearer token, a malformed or unknown or revoked one, or a token of an agent that is not served; on POST /worker/drain, anything but WORKER_SECRET. With a `WWW-Authenticate: Bearer` header.',
  origin_not_allowed:
    'A browser request whose Origin is neither localhost-class nor listed in ALLOWED_ORIGINS (DNS-rebinding protection).',
  host_not_allowed:
    'The Host header names a host not allowed: one not in ALLOWED_HOSTS, or, with it unset on a server listening on loopback, not a loopback name.',
  route_not_found: 'No route has this method and path.',
  method_not_allowed:
    'A GET, PUT, PATCH or DELETE on /mcp, which serves POST only; with an `Allow: POST` header.',
  not_acceptable: 'On /mcp: the Accept header does not admit application/json and text/event-stream.',
  misconfigured:
    'A required setting is missing or invalid (on Workers a binding such as DATABASE_URL); the message names the variable.',
  path_outside_root:
    'A governance artifact name that is a path or not one of the run-contract artifacts; `details.allowed` lists them.',
  missing_project: 'A governance call names a project that has not been bound.',
  max_active_lanes: 'Focusing another lane while the maximum number of lanes is already active.',
  no_proposal: 'Accepting a next step when none is proposed.',
  active_mission_exists: 'Opening a mission in a project that already has an active one.',
  mission_not_active: 'The mission is closed or past its expiry.',
  contract_version_mismatch:
    'The caller read (or expects) another version of the mission contract than the current one.',
  lease_expired: 'The session lease ran out.',
  lease_revoked: 'The session lease was revoked: the mission was recontracted or closed.',
  review_required:
    'Closing a mission as completed while some criteria lack what makes them count: a server check that fails now, or a free-text criterion the owner has not confirmed in the console; the details list them.',
  parallel_session_denied: 'The mission already has as many active sessions as its contract allows.',
  device_mount_required: 'The mission names a project that is not bound on the calling device.',
  lease_required:
    'GOVERNANCE_ENFORCE is on and a mutating legal tool was called on a case without the calling agent’s live session lease on the case’s active mission (or the case has no active mission: `details.mission_id` is null). `details` name the case, the mission and its contract version to authorize on.',
  activity_out_of_scope:
    'GOVERNANCE_ENFORCE is on, the agent holds a lease, but the tool’s activity (`details.activity`, `<area>:<tool>`) is outside the contract’s scope; `details` give the rule that decided and the scope lists.',
};

/** Markdown table cell: no line breaks, pipes escaped. */
export const cell = (text: string): string => text.replace(/\s*\n\s*/g, ' ').replaceAll('|', '\\|');

export function renderErrorTable(): string {
  const lines = ['| code | HTTP | retryable | default hint | when |', '|---|---|---|---|---|'];
  for (const code of errorCodes) {
    const { http, retryable, hint } = errorCatalogue[code];
    lines.push(
      `| \`${code}\` | ${http} | ${retryable ? 'yes' : 'no'} | ${cell(hint)} | ${cell(errorWhen[code])} |`,
    );
  }
  return lines.join('\n');
}

export const renderVerbs = (): string => toolVerbs.map((v) => `\`${v}\``).join(', ');

/** The blocks of docs/contract.md that `npm run docs` writes, by marker name. */
export const contractBlocks = (): Record<string, string> => ({
  verbs: renderVerbs(),
  'error-codes': renderErrorTable(),
});

/**
 * Replaces the text between `<!-- BEGIN GENERATED <name>… -->` and `<!-- END GENERATED <name> -->` with the
 * block, for every block; a missing marker pair is an error (the markers are the contract with this script).
 */
export function spliceBlocks(markdown: string, blocks: Record<string, string>): string {
  let out = markdown;
  for (const [name, body] of Object.entries(blocks)) {
    const begin = new RegExp(`<!-- BEGIN GENERATED ${name}[:\\s][^\\n]*-->\\n`);
    const end = `<!-- END GENERATED ${name} -->`;
    const b = begin.exec(out);
    const e = b === null ? -1 : out.indexOf(end, b.index);
    if (b === null || e < 0)
      throw new Error(`docs/contract.md: no "BEGIN/END GENERATED ${name}" marker pair`);
    const from = b.index + b[0].length;
    out = `${out.slice(0, from)}${body}\n${out.slice(e)}`;
  }
  return out;
}
