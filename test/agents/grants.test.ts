import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { toolList as registeredTools } from '../../functions/index.ts';
import {
  AGENT_NAMES,
  AgentFileError,
  backtickedTokens,
  checkAgentSet,
  checkGrants,
  formatAgentProblem,
  parseAgentFile,
  parseAgents,
} from '../../src/agents/grants.ts';
import { loadAgentsFromDir } from '../../src/agents/load_node.ts';

// The tools that exist today; a later test checks the agents against the live registry.
const TOOLS = [
  'case_create',
  'case_list',
  'case_get',
  'case_update',
  'case_delete',
  'case_final_text_get',
  'document_list',
  'document_text_get',
  'document_update',
  'search_case',
  'search_internal',
  'search_library',
  'search_style',
] as const;

function agentText(name: string, tools: string, body: string): string {
  return `---\nname: ${name}\ndescription: The ${name} agent.\ntools: ${tools}\n---\n\n${body}\n`;
}

function parseError(fileName: string, text: string): AgentFileError {
  try {
    parseAgentFile(fileName, text);
  } catch (error) {
    if (error instanceof AgentFileError) return error;
    throw error;
  }
  throw new Error(`expected ${fileName} to be rejected`);
}

describe('parseAgentFile', () => {
  it('reads a flow list of tools and the instructions', () => {
    const agent = parseAgentFile(
      'ceo.md',
      agentText('ceo', '[case_get, "case_list", \'case_create\'] # grants', 'Use `case_get`.'),
    );
    expect(agent).toEqual({
      name: 'ceo',
      description: 'The ceo agent.',
      tools: ['case_get', 'case_list', 'case_create'],
      instructions: 'Use `case_get`.',
    });
  });

  it('reads a block list, quoted scalars, comments, CRLF and a BOM', () => {
    const text = [
      '\uFEFF---',
      '# who this is',
      'name: "qa"',
      "description: 'Reviews drafts: it''s the last check' # comment",
      'tools:',
      '  - case_get',
      '',
      '  - "case_list"',
      '---',
      'Body with `case_get` and `case_list`.',
    ].join('\r\n');
    const agent = parseAgentFile('qa.md', text);
    expect(agent.name).toBe('qa');
    expect(agent.description).toBe("Reviews drafts: it's the last check");
    expect(agent.tools).toEqual(['case_get', 'case_list']);
    expect(agent.instructions).toBe('Body with `case_get` and `case_list`.');
  });

  it('accepts the blank line that the biome markdown formatter puts after the opening fence', () => {
    const agent = parseAgentFile(
      'qa.md',
      '---\n\nname: qa\ndescription: d\ntools: [case_get]\n---\n\nUse `case_get`.\n',
    );
    expect(agent.name).toBe('qa');
    expect(agent.tools).toEqual(['case_get']);
  });

  it('accepts an empty flow list and Hebrew text', () => {
    const agent = parseAgentFile('w.md', agentText('writer', '[]', 'כותב את ההחלטה.'));
    expect(agent.tools).toEqual([]);
    expect(agent.instructions).toBe('כותב את ההחלטה.');
  });

  const malformed: [string, string, RegExp][] = [
    ['no opening fence', 'name: ceo\n', /must start with a "---" line/],
    ['no closing fence', '---\nname: ceo\ndescription: x\ntools: []\n', /not closed/],
    ['missing name', '---\ndescription: x\ntools: []\n---\nbody', /no "name"/],
    ['missing tools', '---\nname: ceo\ndescription: x\n---\nbody', /no "tools"/],
    ['tools as a string', agentText('ceo', 'case_get, case_list', 'b'), /"tools" must be a list/],
    ['unclosed flow list', agentText('ceo', '[case_get, case_list', 'b'), /not closed by "]"/],
    ['empty list item', agentText('ceo', '[case_get, , case_list]', 'b'), /empty item/],
    ['nested list', agentText('ceo', '[[case_get]]', 'b'), /unsupported list item/],
    ['duplicate grant', agentText('ceo', '[case_get, case_get]', 'b'), /lists case_get twice/],
    ['unknown key', '---\nname: ceo\nmodel: x\n---\nbody', /unknown frontmatter key "model"/],
    ['duplicate key', '---\nname: ceo\nname: qa\n---\nbody', /"name" appears twice/],
    ['no space after colon', '---\nname:ceo\n---\nbody', /expected "key: value"/],
    ['stray indentation', '---\nname: ceo\n  description: x\n---\nbody', /unexpected indented line/],
    ['unterminated quote', '---\nname: "ceo\n---\nbody', /unterminated double-quoted/],
    ['colon in a plain value', '---\nname: ceo\ndescription: a: b\n---\nbody', /quote it/],
    ['block scalar', '---\nname: ceo\ndescription: >\n  x\n---\nbody', /unsupported YAML value/],
    [
      'empty key with no list',
      '---\nname: ceo\ndescription:\ntools: []\n---\nbody',
      /"description" has no value/,
    ],
    [
      'a value folded onto the next line',
      '---\nname: ceo\ndescription: one\n  two\ntools: []\n---\nbody',
      /unexpected indented line/,
    ],
    ['an alias', '---\nname: &n ceo\ndescription: *n\ntools: []\n---\nbody', /aliases and tags/],
    ['a tag', '---\nname: !!str ceo\ndescription: d\ntools: []\n---\nbody', /aliases and tags/],
    ['a map of tools', agentText('ceo', '{case_get: yes}', 'b'), /"tools" must be a list/],
    ['a name given as a list', '---\nname: [ceo]\ndescription: d\ntools: []\n---\nbody', /single value/],
    ['an empty block list item', '---\nname: ceo\ndescription: d\ntools:\n  - a\n  -\n---\nb', /empty item/],
    ['a bad escape', '---\nname: ceo\ndescription: "a\\qb"\ntools: []\n---\nbody', /escape/],
    ['a reserved character', '---\nname: ceo\ndescription: @x\ntools: []\n---\nbody', /quote it/],
    ['bad agent name', agentText('Chief Officer', '[]', 'b'), /name "Chief Officer"/],
    ['no instructions', agentText('ceo', '[]', '   '), /no instructions/],
  ];
  for (const [label, text, message] of malformed) {
    it(`rejects ${label}, naming the file`, () => {
      const error = parseError('agents/broken.md', text);
      expect(error.fileName).toBe('agents/broken.md');
      expect(error.message.startsWith('agents/broken.md')).toBe(true);
      expect(error.message).toMatch(message);
    });
  }

  it('names the line of a frontmatter error', () => {
    const error = parseError('ceo.md', '---\nname: ceo\ndescription: x\ntools: [a b\n---\nbody');
    expect(error.line).toBe(4);
    expect(error.message).toMatch(/^ceo\.md:4: /);
  });

  it('names the line of a problem found after YAML parsed, also with CRLF and a blank first line', () => {
    const text =
      '---\r\n\r\nname: ceo\r\ndescription: d\r\ntools:\r\n  - case_get\r\n  - case_get\r\n---\r\nb';
    const error = parseError('ceo.md', text);
    expect(error.line).toBe(7);
    expect(error.message).toBe('ceo.md:7: "tools" lists case_get twice');
  });
});

describe('parseAgents', () => {
  it('maps agents by name in file order', () => {
    const registry = parseAgents({
      'agents/ceo.md': agentText('ceo', '[]', 'b'),
      'qa.md': agentText('qa', '[]', 'b'),
    });
    expect([...registry.keys()]).toEqual(['ceo', 'qa']);
  });

  it('requires the file to be named after the agent', () => {
    expect(() => parseAgents({ 'agents/boss.md': agentText('ceo', '[]', 'b') })).toThrow(
      /agents\/boss\.md: .*must be named ceo\.md/,
    );
  });

  it('refuses two definitions of one agent', () => {
    expect(() =>
      parseAgents({ 'a/ceo.md': agentText('ceo', '[]', 'b'), 'b/ceo.md': agentText('ceo', '[]', 'b') }),
    ).toThrow(/b\/ceo\.md: agent "ceo" is defined twice/);
  });
});

describe('backtickedTokens', () => {
  it('collects inline code spans, trimmed, including double-backtick spans', () => {
    const tokens = backtickedTokens(
      'Use `case_get` then `` case_list `` and ``a `b` c``; `owner_ack: true`.',
    );
    expect([...tokens]).toEqual(['case_get', 'case_list', 'a `b` c', 'owner_ack: true']);
  });

  it('does not pair the fences of a code block', () => {
    expect([...backtickedTokens('```json\n{"tool": "case_get"}\n```')]).toEqual([]);
  });
});

describe('checkGrants (the grant check)', () => {
  const known = [...TOOLS];

  it('finds nothing in a consistent set', () => {
    const registry = parseAgents({
      'ceo.md': agentText('ceo', '[case_create, case_get]', 'Open with `case_create`, read with `case_get`.'),
      'qa.md': agentText('qa', '[case_get]', 'Read with `case_get`; send `owner_ack: true` and a `reason`.'),
    });
    expect(checkGrants(registry, known)).toEqual([]);
  });

  it('(a) a known tool named in the instructions but not granted is a missing grant', () => {
    const registry = parseAgents({
      'writer.md': agentText('writer', '[case_get]', 'Use `case_get`, then `case_update`.'),
    });
    const problems = checkGrants(registry, known);
    expect(problems).toEqual([
      {
        agent: 'writer',
        tool: 'case_update',
        rule: 'missing grant',
        fix: expect.stringContaining('add case_update'),
      },
    ]);
  });

  it('(a) a tool-like name that no tool has is also a missing grant', () => {
    const registry = parseAgents({
      'researcher.md': agentText('researcher', '[case_get]', 'Use `case_get` and `search_precedent`.'),
    });
    const [problem, ...rest] = checkGrants(registry, known);
    expect(rest).toEqual([]);
    expect(problem?.rule).toBe('missing grant');
    expect(problem?.tool).toBe('search_precedent');
    expect(problem?.fix).toMatch(/no tool search_precedent is registered/);
  });

  it('(a) ignores backticked text that is not a tool name', () => {
    const registry = parseAgents({
      'qa.md': agentText(
        'qa',
        '[case_get]',
        'Use `case_get`; `ok`, `status`, `owner_ack: true`, `data.created`.',
      ),
    });
    expect(checkGrants(registry, known)).toEqual([]);
  });

  it('(b) a grant of an unknown tool is reported, with the nearest known name', () => {
    const registry = parseAgents({
      'analyst.md': agentText('analyst', '[case_get, case_gte]', 'Use `case_get` and `case_gte`.'),
    });
    const problems = checkGrants(registry, known);
    expect(problems).toEqual([
      {
        agent: 'analyst',
        tool: 'case_gte',
        rule: 'unknown tool',
        fix: 'remove case_gte from the tools list in agents/analyst.md (did you mean case_get?)',
      },
    ]);
  });

  it('(c) a grant never mentioned in backticks is reported', () => {
    const registry = parseAgents({
      // Named without backticks: that does not count as a mention.
      'qa.md': agentText('qa', '[case_get, case_list]', 'Use `case_get`; case_list is not in backticks.'),
    });
    const problems = checkGrants(registry, known);
    expect(problems.map((p) => [p.agent, p.tool, p.rule])).toEqual([
      ['qa', 'case_list', 'granted but not mentioned'],
    ]);
    expect(problems[0]?.fix).toMatch(/say in the instructions of agents\/qa\.md when to use `case_list`/);
  });

  it('reports every rule for every agent, each with a one-line fix', () => {
    const registry = parseAgents({
      'ceo.md': agentText('ceo', '[case_get, case_delete]', 'Use `case_get` and `case_create`.'),
      'qa.md': agentText('qa', '[hai_status]', 'Nothing.'),
    });
    const problems = checkGrants(registry, known);
    expect(problems.map((p) => `${p.agent} ${p.tool} ${p.rule}`)).toEqual([
      'ceo case_create missing grant',
      'ceo case_delete granted but not mentioned',
      'qa hai_status unknown tool',
      'qa hai_status granted but not mentioned',
    ]);
    for (const problem of problems) {
      expect(problem.fix).not.toMatch(/\n/);
      expect(formatAgentProblem(problem)).toContain(`${problem.agent}: ${problem.tool}: ${problem.rule}`);
    }
  });
});

describe('checkAgentSet', () => {
  it('reports each of the five agents that is missing', () => {
    const registry = parseAgents({
      'ceo.md': agentText('ceo', '[]', 'b'),
      'qa.md': agentText('qa', '[]', 'b'),
    });
    expect(checkAgentSet(registry).map((p) => p.agent)).toEqual(['analyst', 'researcher', 'writer']);
  });
});

describe('the agents/ directory', () => {
  const dir = fileURLToPath(new URL('../../agents/', import.meta.url));

  it('defines the five agents, with grants consistent with the registered tools', async () => {
    const agents = await loadAgentsFromDir(dir);
    expect([...agents.keys()].sort()).toEqual([...AGENT_NAMES].sort());
    expect(checkAgentSet(agents)).toEqual([]);
    expect(
      checkGrants(
        agents,
        registeredTools.map((t) => t.name),
      ).map(formatAgentProblem),
    ).toEqual([]);
  });

  it('grants case_delete, the owner-gated tool, only to the ceo', async () => {
    const agents = await loadAgentsFromDir(dir);
    const holders = [...agents.values()].filter((a) => a.tools.includes('case_delete')).map((a) => a.name);
    expect(holders).toEqual(['ceo']);
    expect(agents.get('ceo')?.instructions).toContain('`owner_ack: true`');
  });
});
