import { describe, expect, it } from 'vitest';
import { toolList as tools } from '../../functions/index.ts';
import { parseAgents } from '../../src/agents/grants.ts';
import { loadAgentsFromDir } from '../../src/agents/load_node.ts';
import { buildRegistry } from '../../src/contract/registry.ts';
import { grantsFromAgents } from '../../src/server.ts';

describe('the grant check against the live registry', () => {
  it('the agents in agents/ grant and mention exactly registered tools', async () => {
    const grants = grantsFromAgents(await loadAgentsFromDir('agents'), buildRegistry(tools));
    expect([...grants.keys()].sort()).toEqual(['analyst', 'ceo', 'qa', 'researcher', 'writer']);
    // Every registered tool is granted to someone: a tool no agent can call is dead weight. The owner-only
    // tools are the console's (the owner principal holds them), and no agent may hold them.
    const granted = new Set([...grants.values()].flatMap((g) => [...g]));
    const ownerOnly = tools.filter((t) => t.ownerOnly === true).map((t) => t.name);
    expect(ownerOnly.sort()).toEqual([
      'approval_review',
      'direction_review',
      'hai_confirm_criterion',
      'hai_revoke_session',
    ]);
    expect(
      tools
        .map((t) => t.name)
        .filter((n) => !granted.has(n))
        .sort(),
    ).toEqual(ownerOnly);
    for (const name of ownerOnly) expect(granted.has(name), name).toBe(false);
  });

  it('refuses to serve when an agent is granted a tool only the owner calls', async () => {
    const agents = new Map(await loadAgentsFromDir('agents'));
    const ceo = agents.get('ceo');
    if (ceo === undefined) throw new Error('no ceo');
    agents.set('ceo', {
      ...ceo,
      tools: [...ceo.tools, 'approval_review'],
      instructions: `${ceo.instructions}\nDecide with \`approval_review\`.`,
    });
    expect(() => grantsFromAgents(agents, buildRegistry(tools))).toThrow(
      /Owner-only tools are the console's and cannot be granted to an agent: agents\/ceo.md grants approval_review/,
    );
  });

  it('refuses to serve when an agent mentions a tool it is not granted', async () => {
    const agents = await loadAgentsFromDir('agents');
    const files: Record<string, string> = {};
    for (const a of agents.values()) {
      const extra = a.name === 'qa' ? '\nAlso use `case_delete` when a file is wrong.\n' : '';
      files[`agents/${a.name}.md`] =
        `---\nname: ${a.name}\ndescription: ${JSON.stringify(a.description)}\ntools: [${a.tools.join(', ')}]\n---\n${a.instructions}${extra}`;
    }
    expect(() => grantsFromAgents(parseAgents(files), buildRegistry(tools))).toThrow(/qa.*case_delete/s);
  });
});
