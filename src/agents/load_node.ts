// Node-only loader for agents/*.md; the Worker build gets the same texts bundled instead.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AgentRegistry, parseAgents } from './grants.ts';

/** Reads every `.md` file in `dir` (not recursive), in name order, and parses them as agents. */
export async function loadAgentsFromDir(dir = 'agents'): Promise<AgentRegistry> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.md')).sort();
  const files: Record<string, string> = {};
  for (const name of names) {
    // Keyed by path so parse errors say where the file is.
    const path = join(dir, name);
    files[path] = await readFile(path, 'utf8');
  }
  return parseAgents(files);
}
