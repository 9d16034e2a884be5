// README's quickstart stays true: every `curl … /v1/tools/<tool>` example with a JSON body, run with the
// token of the agent minted just before it (`npm run token -- <agent>`), names a tool that agent holds and
// succeeds against the app.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/docs/docs.ts';
import { AGENT_NAMES, type AgentName } from '../../src/agents/grants.ts';
import { loadAgentsFromDir } from '../../src/agents/load_node.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

interface ReadmeCall {
  agent: string;
  tool: string;
  body: string;
}

/** The curl calls of README's shell blocks, each with the agent of the last `npm run token -- <agent>`. */
function readmeCalls(markdown: string): ReadmeCall[] {
  const calls: ReadmeCall[] = [];
  let agent: string | undefined;
  for (const block of markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)) {
    // One logical line per command: join backslash continuations.
    const lines = (block[1] ?? '').replace(/\\\n\s*/g, ' ').split('\n');
    for (const line of lines) {
      const token = /npm run(?: -s)? token -- ([a-z][a-z0-9-]*)/.exec(line);
      if (token) agent = token[1];
      const curl = /\bcurl\b.*\/v1\/tools\/([a-z][a-z0-9_]*)\b/.exec(line);
      if (curl) {
        const body = /(?:-d|--data(?:-raw)?) '([^']*)'/.exec(line)?.[1];
        if (body === undefined) continue;
        if (agent === undefined)
          throw new Error(`README: curl to ${curl[1]} without an npm run token before it`);
        calls.push({ agent, tool: curl[1] ?? '', body });
      }
    }
  }
  return calls;
}

describe('README examples', () => {
  let server: TestServer;
  let calls: ReadmeCall[];
  beforeAll(async () => {
    calls = readmeCalls(await readFile(join(root, 'README.md'), 'utf8'));
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('has at least one curl example of a tool call', () => {
    expect(calls.length).toBeGreaterThan(0);
  });

  it('mints tokens for agents that hold the tools they call', async () => {
    const agents = await loadAgentsFromDir(join(root, 'agents'));
    for (const call of calls) {
      const holders = [...agents.values()].filter((a) => a.tools.includes(call.tool)).map((a) => a.name);
      expect(holders, `README calls ${call.tool} as ${call.agent}`).toContain(call.agent);
    }
  });

  it('calls succeed against the app', async () => {
    for (const call of calls) {
      expect(AGENT_NAMES).toContain(call.agent);
      const { status, body } = await server.callJson(
        call.agent as AgentName,
        call.tool,
        JSON.parse(call.body),
      );
      expect(body.ok ? null : body.error, `README: ${call.tool} as ${call.agent}`).toBeNull();
      expect(status).toBe(200);
    }
  });
});

describe('README: where each tool family lives', () => {
  it('maps every family folder of functions/ to areas of src/ that exist, each family once', async () => {
    const readme = await readFile(join(root, 'README.md'), 'utf8');
    const rows = [...readme.matchAll(/^\| ((?:`[a-z_]+\/`(?:, )?)+) \| (.+) \|$/gm)];
    const families = (await readdir(join(root, 'functions'), { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    const listed = rows.flatMap((r) => [...(r[2] ?? '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1] ?? ''));
    const named = listed.filter((name) => families.includes(name));
    expect([...new Set(named)].sort()).toEqual(families);
    expect(named.length, 'a family listed twice').toBe(families.length);
    for (const row of rows)
      for (const area of (row[1] ?? '').matchAll(/`([a-z_]+)\/`/g))
        expect((await stat(join(root, 'src', area[1] ?? '')).catch(() => null))?.isDirectory(), area[1]).toBe(
          true,
        );
  });
});
