// `npm run docs`: generates docs/tools.md from the tool registry and agents/*.md, and the generated blocks of
// docs/contract.md (the verb list and the error-code table) from the kernel. test/docs/docs.test.ts
// regenerates both in memory and fails when the committed files differ, so the docs cannot drift.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { toolList } from '../../functions/index.ts';
import { AGENT_NAMES, type AgentRegistry } from '../../src/agents/grants.ts';
import { loadAgentsFromDir } from '../../src/agents/load_node.ts';
import type { AnyTool } from '../../src/contract/define.ts';
import { familyOf } from '../../src/contract/naming.ts';
import { buildRegistry, type RegisteredTool, type Registry } from '../../src/contract/registry.ts';
import { cell, contractBlocks, spliceBlocks } from './contract.ts';
import { fieldRows, outputJsonSchema } from './fields.ts';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const TOOLS_MD = 'docs/tools.md';
export const CONTRACT_MD = 'docs/contract.md';

type JsonSchema = Record<string, unknown>;

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

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

const opens =
  'the owner approves this call in the console and the agent repeats it with `approval_id` (OWNER_GATE=ack: `owner_ack: true` and the owner’s `reason`)';

const gateText = (def: AnyTool) =>
  def.ownerOnly === true
    ? 'the owner’s own action, in the console (no agent can be granted it)'
    : def.ownerGate === true
      ? `always: ${opens}`
      : typeof def.ownerGate === 'function'
        ? `conditional: depends on the arguments (see the description); when it applies, ${opens}`
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
    `| agents | ${holders.length === 0 ? (def.ownerOnly === true ? 'none: the owner, in the console' : 'none') : holders.join(', ')} |`,
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
    '<!-- Generated by `npm run docs` (scripts/docs/docs.ts) from functions/index.ts and agents/*.md. Do not edit by hand: change the tool or the agent file and run `npm run docs`. -->',
    '',
    `${registry.tools.length} tools in ${familyNames.length} families: ${familyNames.map((f) => `[${f}](#${f})`).join(', ')}.`,
    'Every tool follows the rules of [contract.md](contract.md): one envelope, arguments as sent, safe',
    'retries, bounded lists, grants and gates. Each tool below lists its parameters as `tools/list`',
    'advertises them with OWNER_GATE=approval (the default of deployments; with OWNER_GATE=ack a gated tool takes',
    '`owner_ack` instead of `approval_id`) and the fields of `data` in a successful result.',
    '',
    '## Who holds what',
    '',
    'An agent sees and may call only the tools granted in its `agents/<name>.md`. The tools no agent holds are the',
    'owner’s, called from the console.',
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
  // Parameters as deployments advertise them (approval mode); the gate row says what ack mode takes instead.
  const registry = buildRegistry(options.tools ?? toolList, { ownerGate: 'approval' });
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
