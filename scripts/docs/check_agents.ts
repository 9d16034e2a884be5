// The grant check (docs/contract.md "Grants and gates"): agents/*.md grants against the live tool registry. Exits 1 on any problem.
// Run: node scripts/docs/check_agents.ts [agents-dir]
import { fileURLToPath } from 'node:url';
import { toolList as tools } from '../../functions/index.ts';
import { checkAgentSet, checkGrants, formatAgentProblem } from '../../src/agents/grants.ts';
import { loadAgentsFromDir } from '../../src/agents/load_node.ts';

const dir = process.argv[2] ?? fileURLToPath(new URL('../../agents/', import.meta.url));
const toolNames = tools.map((t) => t.name);

try {
  const agents = await loadAgentsFromDir(dir);
  const problems = [...checkAgentSet(agents), ...checkGrants(agents, toolNames)];
  for (const problem of problems) console.error(formatAgentProblem(problem));
  // The console's tools (approval_review, hai_revoke_session) are the owner's: no agent may hold one.
  const ownerOnly = new Set(tools.filter((t) => t.ownerOnly === true).map((t) => t.name));
  const forged = [...agents.values()].flatMap((a) =>
    a.tools
      .filter((t) => ownerOnly.has(t))
      .map((t) => `agents/${a.name}.md: ${t} is the owner's (the console), never an agent's`),
  );
  for (const line of forged) console.error(line);
  if (problems.length + forged.length > 0) {
    console.error(`check_agents: ${problems.length + forged.length} problem(s) in ${dir}`);
    process.exit(1);
  }
  console.log(`check_agents: ${agents.size} agents, ${toolNames.length} tools, grants consistent`);
} catch (error) {
  // A malformed agent file: its message names the file and line.
  console.error(`check_agents: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
