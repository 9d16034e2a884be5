// `npm run docs`: generates docs/tools.md from the tool registry and agents/*.md, and the generated blocks of
// docs/contract.md (the verb list and the error-code table) from the kernel. test/docs/docs.test.ts
// regenerates both in memory and fails when the committed files differ, so the docs cannot drift.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { toolList } from '../functions/index.ts';
import { AGENT_NAMES, type AgentRegistry } from '../src/agents/grants.ts';
import { loadAgentsFromDir } from '../src/agents/load_node.ts';
import type { AnyTool } from '../src/contract/define.ts';
import { type ErrorCode, errorCatalogue, errorCodes } from '../src/contract/errors.ts';
import { familyOf, toolVerbs } from '../src/contract/naming.ts';
import { buildRegistry, type RegisteredTool, type Registry } from '../src/contract/registry.ts';

export const root = fileURLToPath(new URL('../', import.meta.url));
export const TOOLS_MD = 'docs/tools.md';
export const CONTRACT_MD = 'docs/contract.md';

type JsonSchema = Record<string, unknown>;

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---------------------------------------------------------------------------------------------------------
// docs/contract.md: the generated blocks.

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
    'An owner-gated call came without `owner_ack: true` and a non-empty `reason`; `details.missing` says which.',
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
  host_not_allowed: 'ALLOWED_HOSTS is set and the Host header names another host.',
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
    'Closing a mission as completed while some criteria lack passing evidence; the details list them.',
  parallel_session_denied: 'The mission already has as many active sessions as its contract allows.',
  device_mount_required: 'The mission names a project that is not bound on the calling device.',
};

/** Markdown table cell: no line breaks, pipes escaped. */
const cell = (text: string): string => text.replace(/\s*\n\s*/g, ' ').replaceAll('|', '\\|');

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
    if (b === null || e < 0) throw new Error(`${CONTRACT_MD}: no "BEGIN/END GENERATED ${name}" marker pair`);
    const from = b.index + b[0].length;
    out = `${out.slice(0, from)}${body}\n${out.slice(e)}`;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// docs/tools.md: JSON Schema to rows.

interface FieldRow {
  path: string;
  type: string;
  required: boolean;
  bounds: string;
  description: string;
}

const refName = (s: JsonSchema) =>
  typeof s.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(s.$ref)?.[1] : undefined;

/** Follows a `$ref` into `$defs`, keeping the referring node's own description. */
function resolve(s: JsonSchema, defs: JsonSchema): JsonSchema {
  const name = refName(s);
  if (name === undefined || !isObject(defs[name])) return s;
  const { $ref: _, ...own } = s;
  return { ...(defs[name] as JsonSchema), ...own };
}

/** The arms of a union (`anyOf`/`oneOf`, or a `type` array), or the schema itself. */
function arms(s: JsonSchema, defs: JsonSchema): JsonSchema[] {
  const r = resolve(s, defs);
  const list = (Array.isArray(r.anyOf) ? r.anyOf : Array.isArray(r.oneOf) ? r.oneOf : undefined) as
    | unknown[]
    | undefined;
  if (list !== undefined) return list.filter(isObject).flatMap((a) => arms(a, defs));
  if (Array.isArray(r.type)) {
    const { type, ...rest } = r;
    return (type as string[]).map((t) => (t === 'null' ? { type: 'null' } : { ...rest, type: t }));
  }
  return [r];
}

const isNull = (s: JsonSchema) => s.type === 'null';

function typeText(s: JsonSchema, defs: JsonSchema): string {
  const parts = arms(s, defs).map((a) => armType(a, defs));
  return [...new Set(parts)].join(' or ');
}

function armType(a: JsonSchema, defs: JsonSchema): string {
  if ('const' in a) return `\`${JSON.stringify(a.const)}\``;
  if (Array.isArray(a.enum)) return `one of ${a.enum.map((v) => `\`${String(v)}\``).join(', ')}`;
  switch (a.type) {
    case 'string':
      return typeof a.format === 'string' ? `string (${a.format})` : 'string';
    case 'array': {
      const items = isObject(a.items) ? a.items : {};
      const itemArms = arms(items, defs);
      const objects = itemArms.every((i) => i.type === 'object');
      const of = objects
        ? 'objects'
        : typeText(items, defs).replace(/^(string|integer|number|boolean)\b/, '$1s');
      return `array of ${of}`;
    }
    case 'object':
      if (!isObject(a.properties) && isObject(a.additionalProperties)) {
        return `object (values: ${typeText(a.additionalProperties, defs)})`;
      }
      return 'object';
    case undefined:
      return 'any';
    default:
      return String(a.type);
  }
}

const range = (min: unknown, max: unknown, unit = ''): string | undefined => {
  // zod bounds every integer by ±2^53 - 1; that is no bound worth reading.
  const lo = typeof min === 'number' && min !== Number.MIN_SAFE_INTEGER ? min : undefined;
  const hi = typeof max === 'number' && max !== Number.MAX_SAFE_INTEGER ? max : undefined;
  if (lo !== undefined && hi !== undefined) return lo === hi ? `exactly ${lo}${unit}` : `${lo}..${hi}${unit}`;
  if (hi !== undefined) return `≤ ${hi}${unit}`;
  if (lo !== undefined) return `≥ ${lo}${unit}`;
  return undefined;
};

function boundsText(s: JsonSchema, defs: JsonSchema): string {
  const out: string[] = [];
  for (const a of arms(s, defs)) {
    if (isNull(a)) continue;
    out.push(
      ...[
        range(a.minLength, a.maxLength, ' chars'),
        range(a.minimum, a.maximum),
        range(a.exclusiveMinimum, undefined)?.replace('≥', '>'),
        range(undefined, a.exclusiveMaximum)?.replace('≤', '<'),
        range(a.minItems, a.maxItems, ' items'),
        // A format (uuid, date-time) says more than the regex zod emits for it.
        typeof a.pattern === 'string' && typeof a.format !== 'string'
          ? `pattern \`${a.pattern}\``
          : undefined,
      ].filter((b): b is string => b !== undefined),
    );
  }
  const r = resolve(s, defs);
  if ('default' in r) out.push(`default ${JSON.stringify(r.default)}`);
  return [...new Set(out)].join(', ');
}

function descriptionOf(s: JsonSchema, defs: JsonSchema): string {
  const r = resolve(s, defs);
  if (typeof r.description === 'string') return r.description;
  for (const a of arms(s, defs)) if (typeof a.description === 'string') return a.description;
  return '';
}

/**
 * The fields of an object schema as rows, nested objects and arrays of objects as dotted paths
 * (`items[].case_number`). Fields of a union's object arms are listed once each, as not always present.
 */
export function fieldRows(schema: JsonSchema, defs: JsonSchema = {}, prefix = '', depth = 0): FieldRow[] {
  const rows: FieldRow[] = [];
  const seen = new Set<string>();
  const objectArms = arms(schema, defs).filter((a) => isObject(a.properties));
  for (const obj of objectArms) {
    const required = new Set(Array.isArray(obj.required) ? (obj.required as string[]) : []);
    for (const [name, raw] of Object.entries(obj.properties as JsonSchema)) {
      if (!isObject(raw)) continue;
      const path = `${prefix}${name}`;
      if (seen.has(path)) continue;
      seen.add(path);
      rows.push({
        path,
        type: typeText(raw, defs),
        required: objectArms.length === 1 && required.has(name),
        bounds: boundsText(raw, defs),
        description: descriptionOf(raw, defs),
      });
      if (depth >= 8) continue;
      for (const a of arms(raw, defs)) {
        if (isObject(a.properties)) rows.push(...fieldRows(a, defs, `${path}.`, depth + 1));
        if (a.type === 'array' && isObject(a.items))
          rows.push(...fieldRows(a.items, defs, `${path}[].`, depth + 1));
      }
    }
  }
  // A nested path reached through two arms is listed once.
  const unique = new Map<string, FieldRow>();
  for (const row of rows) if (!unique.has(row.path)) unique.set(row.path, row);
  return [...unique.values()];
}

/** The output as documented: zod's JSON Schema of the output side, with descriptions and `required`. */
export function outputJsonSchema(def: AnyTool): JsonSchema {
  return z.toJSONSchema(def.output as z.ZodType, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
}

// ---------------------------------------------------------------------------------------------------------
// docs/tools.md: the page.

/** Agents in the team's order (ceo first), then any others by name. */
export function agentOrder(agents: AgentRegistry): string[] {
  const rank = (name: string) => {
    const i = (AGENT_NAMES as readonly string[]).indexOf(name);
    return i < 0 ? AGENT_NAMES.length : i;
  };
  return [...agents.keys()].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

const holdersOf = (tool: string, agents: AgentRegistry, order: readonly string[]) =>
  order.filter((a) => agents.get(a)?.tools.includes(tool));

const gateText = (def: AnyTool) =>
  def.ownerGate === true
    ? 'always: `owner_ack: true` and the owner’s `reason`'
    : typeof def.ownerGate === 'function'
      ? 'conditional: depends on the arguments (see the description); when it applies, `owner_ack: true` and the owner’s `reason`'
      : 'none';

function retriesText(def: AnyTool): string {
  if (def.mutates === false) return 'read-only: repeat freely';
  const key = def.idempotencyKey?.describe ?? '(none)';
  return def.setSemantics
    ? `natural key: ${key}; sets values, so a repeat runs again (a concurrent duplicate is \`in_progress\`; nothing is replayed)`
    : `natural key: ${key}; a repeat with the same arguments replays the first result (\`replayed: true\`)`;
}

const yesNo = (b: boolean) => (b ? 'yes' : 'no');

function renderTool(tool: RegisteredTool, agents: AgentRegistry, order: readonly string[]): string[] {
  const { def, listing } = tool;
  const a = listing.annotations;
  const holders = holdersOf(def.name, agents, order);
  const lines: string[] = [
    `### ${def.name}`,
    '',
    ...(def.title === undefined ? [] : [`**${def.title}**`, '']),
    def.description,
    '',
    '| | |',
    '|---|---|',
    `| agents | ${holders.length === 0 ? 'none' : holders.join(', ')} |`,
    `| behaviour | ${'readOnlyHint' in a ? 'read-only' : `writes · destructive: ${yesNo(a.destructiveHint)} · idempotent: ${yesNo(a.idempotentHint)}`} |`,
    `| owner gate | ${gateText(def)} |`,
    `| retries | ${cell(retriesText(def))} |`,
    `| paging | ${def.pages === undefined ? 'no' : 'yes: `limit` and `cursor` (docs/contract.md "Lists")'} |`,
  ];
  if (def.takesUpload) lines.push('| uploads | takes file content: the larger body cap applies |');
  if (def.readCounterpart !== undefined) lines.push(`| read counterpart | \`${def.readCounterpart}\` |`);
  const inputDefs = isObject(listing.inputSchema.$defs) ? listing.inputSchema.$defs : {};
  const params = fieldRows(listing.inputSchema, inputDefs);
  lines.push('', '**Parameters**', '');
  if (params.length === 0) {
    lines.push('None.');
  } else {
    lines.push('| name | type | required | bounds | description |', '|---|---|---|---|---|');
    for (const p of params) {
      lines.push(
        `| \`${p.path}\` | ${cell(p.type)} | ${yesNo(p.required)} | ${cell(p.bounds)} | ${cell(p.description)} |`,
      );
    }
  }
  const output = outputJsonSchema(def);
  const outputs = fieldRows(output, isObject(output.$defs) ? output.$defs : {});
  lines.push('', '**Output** (`data` on success)', '');
  if (outputs.length === 0) {
    lines.push('No fields.');
  } else {
    lines.push('| field | type | always present | description |', '|---|---|---|---|');
    for (const f of outputs) {
      const type = f.bounds === '' ? f.type : `${f.type}, ${f.bounds}`;
      lines.push(`| \`${f.path}\` | ${cell(type)} | ${yesNo(f.required)} | ${cell(f.description)} |`);
    }
  }
  lines.push('');
  return lines;
}

/** docs/tools.md, from a registry and the agents; deterministic (families and tools by name). */
export function renderToolsMd(registry: Registry, agents: AgentRegistry): string {
  const order = agentOrder(agents);
  const families = new Map<string, RegisteredTool[]>();
  for (const tool of registry.tools) {
    const family = familyOf(tool.def.name);
    families.set(family, [...(families.get(family) ?? []), tool]);
  }
  const familyNames = [...families.keys()].sort();
  const lines: string[] = [
    '# Tools',
    '',
    '<!-- Generated by `npm run docs` (scripts/docs.ts) from functions/index.ts and agents/*.md. Do not edit by hand: change the tool or the agent file and run `npm run docs`. -->',
    '',
    `${registry.tools.length} tools in ${familyNames.length} families: ${familyNames.map((f) => `[${f}](#${f})`).join(', ')}.`,
    'Every tool follows the rules of [contract.md](contract.md): one envelope, arguments as sent, safe',
    'retries, bounded lists, grants and gates. Each tool below lists its parameters as `tools/list`',
    'advertises them and the fields of `data` in a successful result.',
    '',
    '## Who holds what',
    '',
    'An agent sees and may call only the tools granted in its `agents/<name>.md`.',
    '',
    `| tool | ${order.join(' | ')} |`,
    `|---|${order.map(() => ':-:').join('|')}|`,
  ];
  for (const family of familyNames) {
    for (const tool of families.get(family) ?? []) {
      const held = new Set(holdersOf(tool.def.name, agents, order));
      lines.push(`| \`${tool.def.name}\` | ${order.map((a) => (held.has(a) ? '✓' : '')).join(' | ')} |`);
    }
  }
  lines.push('');
  for (const family of familyNames) {
    lines.push(`## ${family}`, '');
    for (const tool of families.get(family) ?? []) lines.push(...renderTool(tool, agents, order));
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

// ---------------------------------------------------------------------------------------------------------

export interface GeneratedDocs {
  /** Repo-relative path → the content it should have. */
  files: Record<string, string>;
}

/** Everything `npm run docs` writes, computed in memory (the test compares it with the committed files). */
export async function generateDocs(
  options: { tools?: readonly AnyTool[]; agents?: AgentRegistry; dir?: string } = {},
): Promise<GeneratedDocs> {
  const dir = options.dir ?? root;
  const registry = buildRegistry(options.tools ?? toolList);
  const agents = options.agents ?? (await loadAgentsFromDir(`${dir}agents`));
  const contract = await readFile(`${dir}${CONTRACT_MD}`, 'utf8');
  return {
    files: {
      [TOOLS_MD]: renderToolsMd(registry, agents),
      [CONTRACT_MD]: spliceBlocks(contract, contractBlocks()),
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { files } = await generateDocs();
  for (const [path, text] of Object.entries(files)) {
    const current = await readFile(`${root}${path}`, 'utf8').catch(() => null);
    if (current === text) {
      console.log(`docs: ${path} is up to date`);
    } else {
      await writeFile(`${root}${path}`, text);
      console.log(`docs: wrote ${path}`);
    }
  }
}
