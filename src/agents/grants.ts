// Agent definitions (agents/<name>.md) and the grant check (docs/contract.md "Grants and gates").
// Pure functions over strings: the Worker build uses this module too, and Workers have no fs.
import {
  isAlias,
  isCollection,
  isMap,
  isNode,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseDocument,
  type YAMLError,
} from 'yaml';
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

/**
 * Parses one agent file: a YAML frontmatter of `name`, `description` and `tools`, then the
 * instructions. The frontmatter is read by the `yaml` library with the failsafe schema (every scalar is a
 * string); on top of YAML, only the three keys, one-line scalars (plain or quoted) and a list of names are
 * accepted. Anything else is an error naming the file and line, never a guess.
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
  const frontmatter = new Frontmatter(fileName, lines.slice(1, close).join('\n'));
  const name = frontmatter.scalar('name');
  if (!AGENT_NAME_PATTERN.test(name)) {
    throw frontmatter.error(
      `name "${name}" must be lower case letters, digits or "-"`,
      frontmatter.node('name'),
    );
  }
  const description = frontmatter.scalar('description');
  const tools = frontmatter.list('tools');
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
 * The grant check: grants match instructions, with nothing missing and nothing extra.
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
// The frontmatter, read by the `yaml` library; what it accepts beyond the agent format is refused here.

/** YAML's own messages for what an agent file gets wrong most, said in the terms of this format. */
function yamlProblem(errors: readonly YAMLError[]): { message: string; offset: number } | undefined {
  const [error] = errors;
  if (error === undefined) return undefined;
  const at = error.pos[0];
  const multiline = errors.find((e) => e.code === 'MULTILINE_IMPLICIT_KEY');
  // "name: x" followed by an indented "key: y": YAML reads both lines as one key.
  if (multiline !== undefined)
    return { message: 'unexpected indented line in the frontmatter', offset: multiline.pos[1] };
  if (error.code === 'BLOCK_AS_IMPLICIT_KEY')
    return { message: 'a plain value may not contain ": " (quote it)', offset: at };
  if (error.code === 'MISSING_CHAR' && error.message.includes('quote')) {
    return {
      message: `unterminated ${error.message.includes('"') ? 'double' : 'single'}-quoted value`,
      offset: at,
    };
  }
  if (/end with (a )?\]/.test(error.message)) return { message: 'the list is not closed by "]"', offset: at };
  if (/^Unexpected , in flow/.test(error.message)) return { message: 'empty item in the list', offset: at };
  if (error.code === 'BAD_SCALAR_START') return { message: `${error.message} (quote it)`, offset: at };
  if (error.code === 'MULTIPLE_DOCS')
    return { message: 'the frontmatter holds one YAML document', offset: at };
  return { message: error.message, offset: at };
}

/** The three fields of a parsed frontmatter, each with its line for error messages. */
class Frontmatter {
  private readonly fields = new Map<string, Node>();
  private readonly lines = new LineCounter();

  private readonly fileName: string;

  constructor(fileName: string, source: string) {
    this.fileName = fileName;
    const doc = parseDocument(source, {
      lineCounter: this.lines,
      schema: 'failsafe', // every scalar is a string: no numbers, booleans or nulls to second-guess
      prettyErrors: false,
      uniqueKeys: false, // a duplicate is reported below, naming the key
    });
    const problem = yamlProblem(doc.errors);
    if (problem !== undefined)
      throw new AgentFileError(fileName, problem.message, this.lineOf(problem.offset));
    const root = doc.contents;
    if (root === null) return;
    if (!isMap(root)) throw this.error('expected "key: value" in the frontmatter', root);
    for (const { key, value } of root.items) {
      if (!isScalar(key) || typeof key.value !== 'string') {
        throw this.error('expected "key: value" in the frontmatter', isNode(key) ? key : undefined);
      }
      const name = key.value;
      if (!(FRONTMATTER_KEYS as readonly string[]).includes(name)) {
        throw this.error(`unknown frontmatter key "${name}" (allowed: ${FRONTMATTER_KEYS.join(', ')})`, key);
      }
      if (this.fields.has(name)) throw this.error(`frontmatter key "${name}" appears twice`, key);
      if (!isNode(value) || isEmpty(value)) throw this.error(`frontmatter key "${name}" has no value`, key);
      this.fields.set(name, value);
    }
  }

  /** The file line of a frontmatter offset: the opening "---" is line 1. */
  private lineOf(offset: number): number {
    return this.lines.linePos(offset).line + 1;
  }

  error(message: string, node?: Node, at: 'start' | 'end' = 'start'): AgentFileError {
    const offset = node?.range?.[at === 'start' ? 0 : 1];
    return new AgentFileError(this.fileName, message, offset === undefined ? undefined : this.lineOf(offset));
  }

  /** A one-line plain or quoted string: the only scalars an agent file needs. */
  private text(node: Node, what: string): string {
    if (isAlias(node) || node.anchor !== undefined || node.tag !== undefined) {
      throw this.error(
        `unsupported YAML value in ${what}: anchors, aliases and tags are not used here`,
        node,
      );
    }
    if (!isScalar(node) || typeof node.value !== 'string') {
      throw this.error(`unsupported YAML value in ${what} (write a single value, quoted if need be)`, node);
    }
    if (node.type === 'BLOCK_FOLDED' || node.type === 'BLOCK_LITERAL') {
      throw this.error(
        `unsupported YAML value in ${what}: a block scalar (write it on one line, quoted)`,
        node,
      );
    }
    const [start, end] = node.range ?? [0, 0];
    // YAML would fold the lines into one value; the agent format keeps every value on its line.
    if (this.lineOf(end) !== this.lineOf(start)) {
      throw this.error(`unexpected indented line in the frontmatter: write ${what} on one line`, node, 'end');
    }
    return node.value;
  }

  scalar(key: string): string {
    const node = this.fields.get(key);
    if (node === undefined) throw this.error(`frontmatter has no "${key}"`);
    if (isSeq(node)) throw this.error(`"${key}" must be a single value, not a list`, node);
    return this.text(node, `"${key}"`);
  }

  list(key: string): string[] {
    const node = this.fields.get(key);
    if (node === undefined) throw this.error(`frontmatter has no "${key}"`);
    if (!isSeq(node)) throw this.error(`"${key}" must be a list, e.g. ${key}: [a, b]`, node);
    const items: string[] = [];
    for (const item of node.items) {
      if (!isNode(item) || isEmpty(item)) {
        throw this.error(`empty item in the list "${key}"`, isNode(item) ? item : node);
      }
      if (isCollection(item)) throw this.error(`unsupported list item in "${key}": write a name`, item);
      const value = this.text(item, `the list "${key}"`);
      if (items.includes(value)) throw this.error(`"${key}" lists ${value} twice`, item);
      items.push(value);
    }
    return items;
  }

  /** A field's value node, for errors found after parsing. */
  node(key: string): Node | undefined {
    return this.fields.get(key);
  }
}

const isEmpty = (node: Node): boolean => isScalar(node) && node.type === 'PLAIN' && node.source === '';
