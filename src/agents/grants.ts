// Agent definitions (agents/<name>.md) and the INV-TOOL6 grant check (DESIGN C7).
// Pure functions over strings: the Worker build uses this module too, and Workers have no fs.
import { nearestName } from '../contract/naming.ts';

export const AGENT_NAMES = ['ceo', 'analyst', 'researcher', 'writer', 'qa'] as const;
export type AgentName = (typeof AGENT_NAMES)[number];

export type AgentDefinition = {
  readonly name: string;
  readonly description: string;
  readonly tools: string[];
  readonly instructions: string;
};

/** Agents by name, in file order. */
export type AgentRegistry = ReadonlyMap<string, AgentDefinition>;

export type GrantRule = 'missing grant' | 'unknown tool' | 'granted but not mentioned';

export type GrantProblem = {
  readonly agent: string;
  readonly tool: string;
  readonly rule: GrantRule;
  /** One line saying how to fix it. */
  readonly fix: string;
};

export type AgentSetProblem = {
  readonly agent: string;
  readonly rule: 'missing agent';
  readonly fix: string;
};

/**
 * A backticked token that matches this is treated as a tool name even when no such tool is
 * registered, so instructions cannot promise a tool that does not exist (or is not granted).
 */
export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9]*_[a-z0-9_]+$/;

const AGENT_NAME_PATTERN = /^[a-z][a-z0-9-]*$/;
const FRONTMATTER_KEYS = ['name', 'description', 'tools'] as const;

/** A malformed agent file; the message starts with the file name (and line, when known). */
export class AgentFileError extends Error {
  readonly fileName: string;
  readonly line: number | undefined;

  constructor(fileName: string, message: string, line?: number) {
    super(`${fileName}${line === undefined ? '' : `:${line}`}: ${message}`);
    this.name = 'AgentFileError';
    this.fileName = fileName;
    this.line = line;
  }
}

type FieldValue = { readonly value: string | string[]; readonly line: number };

/**
 * Parses one agent file: a YAML frontmatter of `name`, `description` and `tools`, then the
 * instructions. Only the YAML this format needs is accepted (plain or quoted scalars, a flow
 * list or a block list); anything else is an error naming the file and line, never a guess.
 */
export function parseAgentFile(fileName: string, text: string): AgentDefinition {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trimEnd() !== '---') {
    throw new AgentFileError(fileName, 'must start with a "---" line opening the YAML frontmatter', 1);
  }
  const close = lines.findIndex((line, i) => i > 0 && line.trimEnd() === '---');
  if (close < 0) {
    throw new AgentFileError(fileName, 'the YAML frontmatter is not closed by a "---" line');
  }
  const fields = parseFrontmatter(fileName, lines.slice(1, close));

  const name = requireString(fileName, fields, 'name');
  if (!AGENT_NAME_PATTERN.test(name)) {
    throw new AgentFileError(
      fileName,
      `name "${name}" must be lower case letters, digits or "-"`,
      fields.get('name')?.line,
    );
  }
  const description = requireString(fileName, fields, 'description');
  const tools = requireList(fileName, fields, 'tools');
  const instructions = lines
    .slice(close + 1)
    .join('\n')
    .trim();
  if (instructions === '') {
    throw new AgentFileError(fileName, 'has no instructions after the frontmatter');
  }
  return { name, description, tools, instructions };
}

/** Parses every agent file; each file must be named `<name>.md` after the agent it defines. */
export function parseAgents(files: Record<string, string>): AgentRegistry {
  const agents = new Map<string, AgentDefinition>();
  for (const [fileName, text] of Object.entries(files)) {
    const agent = parseAgentFile(fileName, text);
    const base = fileName.split(/[/\\]/).pop() ?? fileName;
    if (base !== `${agent.name}.md`) {
      throw new AgentFileError(
        fileName,
        `defines agent "${agent.name}", so it must be named ${agent.name}.md`,
      );
    }
    if (agents.has(agent.name)) {
      throw new AgentFileError(fileName, `agent "${agent.name}" is defined twice`);
    }
    agents.set(agent.name, agent);
  }
  return agents;
}

/** Every agent the design names must have a definition. */
export function checkAgentSet(
  agents: AgentRegistry,
  expected: readonly string[] = AGENT_NAMES,
): AgentSetProblem[] {
  return expected
    .filter((name) => !agents.has(name))
    .map((name) => ({
      agent: name,
      rule: 'missing agent' as const,
      fix: `add agents/${name}.md with name, description and tools frontmatter and its instructions`,
    }));
}

/**
 * INV-TOOL6: grants match instructions, with nothing missing and nothing extra.
 * (a) a tool named in backticks that is not granted, (b) a grant of an unknown tool,
 * (c) a grant never named in backticks in the instructions.
 */
export function checkGrants(agents: AgentRegistry, knownToolNames: readonly string[]): GrantProblem[] {
  const known = new Set(knownToolNames);
  const problems: GrantProblem[] = [];
  for (const agent of agents.values()) {
    const file = `agents/${agent.name}.md`;
    const granted = new Set(agent.tools);
    const mentioned = backtickedTokens(agent.instructions);

    for (const token of mentioned) {
      if (granted.has(token) || !(known.has(token) || TOOL_NAME_PATTERN.test(token))) continue;
      problems.push({
        agent: agent.name,
        tool: token,
        rule: 'missing grant',
        fix: known.has(token)
          ? `add ${token} to the tools list in ${file}, or stop naming it in its instructions`
          : `no tool ${token} is registered: write it without backticks if it is not a tool (an argument or error code), else drop the mention`,
      });
    }
    for (const tool of agent.tools) {
      if (known.has(tool)) continue;
      const near = nearestName(tool, knownToolNames);
      problems.push({
        agent: agent.name,
        tool,
        rule: 'unknown tool',
        fix: `remove ${tool} from the tools list in ${file}${near === undefined ? '' : ` (did you mean ${near}?)`}`,
      });
    }
    for (const tool of agent.tools) {
      if (mentioned.has(tool)) continue;
      problems.push({
        agent: agent.name,
        tool,
        rule: 'granted but not mentioned',
        fix: `say in the instructions of ${file} when to use \`${tool}\`, or remove the grant`,
      });
    }
  }
  return problems;
}

export function formatAgentProblem(problem: GrantProblem | AgentSetProblem): string {
  const subject = 'tool' in problem ? `${problem.agent}: ${problem.tool}` : problem.agent;
  return `${subject}: ${problem.rule} (fix: ${problem.fix})`;
}

/**
 * The contents of inline code spans, trimmed, in order of first appearance. A span opens and
 * closes with backtick runs of equal length (as in CommonMark), so ``a `b` c`` is one span.
 */
export function backtickedTokens(markdown: string): Set<string> {
  const tokens = new Set<string>();
  for (const match of markdown.matchAll(/(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)/g)) {
    const token = (match[2] ?? '').trim();
    if (token !== '') tokens.add(token);
  }
  return tokens;
}

// ---------------------------------------------------------------------------------------------
// The restricted frontmatter parser.

function parseFrontmatter(fileName: string, lines: readonly string[]): Map<string, FieldValue> {
  const fields = new Map<string, FieldValue>();
  let i = 0;
  while (i < lines.length) {
    const raw = lines[i] ?? '';
    const lineNo = i + 2; // the opening "---" is line 1
    i++;
    if (isBlankOrComment(raw)) continue;
    if (/^\s/.test(raw)) {
      throw new AgentFileError(fileName, 'unexpected indented line in the frontmatter', lineNo);
    }
    const m = /^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*))?$/.exec(raw.trimEnd());
    if (m === null) {
      throw new AgentFileError(fileName, 'expected "key: value" in the frontmatter', lineNo);
    }
    const key = m[1] ?? '';
    if (!(FRONTMATTER_KEYS as readonly string[]).includes(key)) {
      throw new AgentFileError(
        fileName,
        `unknown frontmatter key "${key}" (allowed: ${FRONTMATTER_KEYS.join(', ')})`,
        lineNo,
      );
    }
    if (fields.has(key)) {
      throw new AgentFileError(fileName, `frontmatter key "${key}" appears twice`, lineNo);
    }
    const rest = stripComment(m[2] ?? '');
    if (rest === '') {
      // A block list follows: "- item" lines, indented or not.
      const items: string[] = [];
      while (i < lines.length) {
        const itemLine = lines[i] ?? '';
        if (isBlankOrComment(itemLine)) {
          i++;
          continue;
        }
        const item = /^\s*-(?:[ \t]+(.*))?$/.exec(itemLine.trimEnd());
        if (item === null) break;
        const value = item[1] ?? '';
        if (value.trim() === '' || value.trim().startsWith('#')) {
          throw new AgentFileError(fileName, `empty item in the list "${key}"`, i + 2);
        }
        items.push(parseScalar(fileName, value, i + 2));
        i++;
      }
      if (items.length === 0) {
        throw new AgentFileError(fileName, `frontmatter key "${key}" has no value`, lineNo);
      }
      fields.set(key, { value: items, line: lineNo });
    } else if (rest.startsWith('[')) {
      fields.set(key, { value: parseFlowList(fileName, rest, lineNo), line: lineNo });
    } else {
      fields.set(key, { value: parseScalar(fileName, rest, lineNo), line: lineNo });
    }
  }
  return fields;
}

function requireString(fileName: string, fields: Map<string, FieldValue>, key: string): string {
  const field = fields.get(key);
  if (field === undefined) throw new AgentFileError(fileName, `frontmatter has no "${key}"`);
  if (typeof field.value !== 'string') {
    throw new AgentFileError(fileName, `"${key}" must be a single value, not a list`, field.line);
  }
  return field.value;
}

function requireList(fileName: string, fields: Map<string, FieldValue>, key: string): string[] {
  const field = fields.get(key);
  if (field === undefined) throw new AgentFileError(fileName, `frontmatter has no "${key}"`);
  if (typeof field.value === 'string') {
    throw new AgentFileError(fileName, `"${key}" must be a list, e.g. ${key}: [a, b]`, field.line);
  }
  const seen = new Set<string>();
  for (const item of field.value) {
    if (seen.has(item)) throw new AgentFileError(fileName, `"${key}" lists ${item} twice`, field.line);
    seen.add(item);
  }
  return field.value;
}

function isBlankOrComment(line: string): boolean {
  const t = line.trim();
  return t === '' || t.startsWith('#');
}

/** Drops a trailing " # comment" that is outside quotes. */
function stripComment(text: string): string {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== undefined) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1] ?? ''))) {
      return text.slice(0, i).trim();
    }
  }
  return text.trim();
}

/** A plain, 'single' or "double" quoted scalar that fills the whole of `text` (comments allowed). */
function parseScalar(fileName: string, text: string, lineNo: number): string {
  const t = text.trim();
  if (t.startsWith('"') || t.startsWith("'")) {
    const { value, end } = readQuoted(fileName, t, 0, lineNo);
    const after = t.slice(end).trim();
    if (after !== '' && !after.startsWith('#')) {
      throw new AgentFileError(fileName, `unexpected text after the closing quote: ${after}`, lineNo);
    }
    return value;
  }
  const plain = stripComment(t);
  if (plain === '') throw new AgentFileError(fileName, 'empty value', lineNo);
  if (/^[[\]{},&*!|>%@`]/.test(plain) || /^[-?:](\s|$)/.test(plain)) {
    throw new AgentFileError(fileName, `unsupported YAML value ${plain} (quote it)`, lineNo);
  }
  if (/:\s/.test(plain)) {
    throw new AgentFileError(fileName, `a plain value may not contain ": " (quote it): ${plain}`, lineNo);
  }
  return plain;
}

/** A one-line flow list: [a, "b", 'c'] with an optional trailing comma and comment. */
function parseFlowList(fileName: string, text: string, lineNo: number): string[] {
  const items: string[] = [];
  let i = 1; // past "["
  const skipSpace = (): void => {
    while (i < text.length && /\s/.test(text[i] ?? '')) i++;
  };
  for (;;) {
    skipSpace();
    if (i >= text.length) throw new AgentFileError(fileName, 'the list is not closed by "]"', lineNo);
    if (text[i] === ']') {
      i++;
      break;
    }
    const c = text[i] ?? '';
    if (c === '"' || c === "'") {
      const { value, end } = readQuoted(fileName, text, i, lineNo);
      items.push(value);
      i = end;
    } else {
      const start = i;
      while (i < text.length && text[i] !== ',' && text[i] !== ']') i++;
      const plain = text.slice(start, i).trim();
      if (plain === '') throw new AgentFileError(fileName, 'empty item in the list', lineNo);
      if (/^[[{&*!|>%@`#]/.test(plain) || /[[\]{}"']/.test(plain) || /:\s/.test(plain)) {
        throw new AgentFileError(fileName, `unsupported list item ${plain} (quote it)`, lineNo);
      }
      items.push(plain);
    }
    skipSpace();
    if (i >= text.length) throw new AgentFileError(fileName, 'the list is not closed by "]"', lineNo);
    if (text[i] === ',') {
      i++;
    } else if (text[i] !== ']') {
      throw new AgentFileError(fileName, 'expected "," or "]" in the list', lineNo);
    }
  }
  const after = text.slice(i).trim();
  if (after !== '' && !after.startsWith('#')) {
    throw new AgentFileError(fileName, `unexpected text after the list: ${after}`, lineNo);
  }
  return items;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  n: '\n',
  t: '\t',
  r: '\r',
  '0': '\0',
};

function readQuoted(
  fileName: string,
  text: string,
  start: number,
  lineNo: number,
): { value: string; end: number } {
  const quote = text[start];
  let value = '';
  let i = start + 1;
  while (i < text.length) {
    const c = text[i] ?? '';
    if (c === quote) {
      // In single quotes, '' is an escaped quote.
      if (quote === "'" && text[i + 1] === "'") {
        value += "'";
        i += 2;
        continue;
      }
      return { value, end: i + 1 };
    }
    if (c === '\\' && quote === '"') {
      const e = text[i + 1] ?? '';
      const hex = /^u([0-9a-fA-F]{4})/.exec(text.slice(i + 1));
      if (hex !== null) {
        value += String.fromCharCode(Number.parseInt(hex[1] ?? '', 16));
        i += 6;
        continue;
      }
      const escaped = ESCAPES[e];
      if (escaped === undefined) {
        throw new AgentFileError(fileName, `unsupported escape \\${e} in a quoted value`, lineNo);
      }
      value += escaped;
      i += 2;
      continue;
    }
    value += c;
    i++;
  }
  throw new AgentFileError(
    fileName,
    `unterminated ${quote === '"' ? 'double' : 'single'}-quoted value`,
    lineNo,
  );
}
