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
    // Every registered tool is granted to someone: a tool no agent can call is dead weight.
    const granted = new Set([...grants.values()].flatMap((g) => [...g]));
    expect(tools.map((t) => t.name).filter((n) => !granted.has(n))).toEqual([]);
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
