/**
 * Smoke test with an outside client: the real `npm start` (embedded PGlite in a fresh DATA_DIR) driven by
 * the MCP Inspector CLI (@modelcontextprotocol/inspector) over Streamable HTTP, with a token minted by
 * `npm run token` while the server runs (the running server owns the PGlite directory and mints it).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolList as registeredTools } from '../../functions/index.ts';
import { loadAgentsFromDir } from '../../src/agents/load_node.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
// The Inspector's own launcher, run with this Node: `npx` would only add npm's start-up time per call.
const inspectorBin = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')),
  'clients/launcher/build/index.js',
);
const CASE_TOOLS = [
  'case_create',
  'case_delete',
  'case_final_text_get',
  'case_get',
  'case_list',
  'case_update',
];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });

const run = (command: string, args: string[], env: NodeJS.ProcessEnv, timeout = 20_000) =>
  new Promise<Run>((resolve) => {
    execFile(command, args, { cwd: root, env, timeout, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });

interface ToolsList {
  tools: { name: string; inputSchema: Record<string, unknown>; annotations?: Record<string, unknown> }[];
}
interface CallResult {
  content: { type: string; text: string }[];
  structuredContent: {
    ok: boolean;
    status: string;
    data?: Record<string, unknown>;
    error?: { code: string; message: string; hint?: string };
    replayed?: boolean;
  };
  isError: boolean;
}

describe('MCP Inspector CLI against `npm start`', () => {
  let dataDir: string;
  let home: string;
  let server: ChildProcess | undefined;
  let serverExit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  let output = '';
  let mcpUrl: string;
  let ceoToken: string;
  const firstStartTokens = new Map<string, string>();
  let env: NodeJS.ProcessEnv;

  const inspector = (token: string, args: string[]) =>
    run(
      process.execPath,
      [inspectorBin, '--cli', mcpUrl, '--header', `Authorization: Bearer ${token}`, ...args],
      {
        ...env,
        HOME: home,
      },
    );

  /** tools/call through the Inspector CLI with JSON arguments, sent verbatim (--tool-args-json). */
  const callJson = (token: string, tool: string, args: Record<string, unknown> | string) =>
    inspector(token, [
      '--method',
      'tools/call',
      '--tool-name',
      tool,
      '--tool-args-json',
      typeof args === 'string' ? args : JSON.stringify(args),
    ]);

  beforeAll(async () => {
    // The Inspector keeps a catalog and OAuth storage under $HOME; a temporary one leaves nothing behind.
    home = await mkdtemp(join(tmpdir(), 'chambers-smoke-home-'));
    // The port is free when probed, but another suite's server may take it before npm start binds it:
    // then start again on another port (a few times at most).
    for (let attempt = 1; ; attempt++) {
      output = '';
      // A fresh directory each time: the first start prints the agents' tokens (the test reads them).
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
      dataDir = await mkdtemp(join(tmpdir(), 'chambers-smoke-data-'));
      try {
        const port = await freePort();
        env = {
          ...process.env,
          DATA_DIR: dataDir,
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          npm_config_update_notifier: 'false',
        };
        delete env.DATABASE_URL;
        delete env.UPSTASH_REDIS_REST_URL;
        delete env.UPSTASH_REDIS_REST_TOKEN;
        // Its own process group (detached), so afterAll can stop npm, its shell and the server together.
        const child = spawn('npm', ['start'], {
          cwd: root,
          env,
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        server = child;
        serverExit = new Promise((resolve) =>
          child.once('exit', (code, signal) => resolve({ code, signal })),
        );
        child.stdout?.on('data', (chunk: Buffer) => {
          output += chunk.toString('utf8');
        });
        child.stderr?.on('data', (chunk: Buffer) => {
          output += chunk.toString('utf8');
        });
        await new Promise<void>((resolve, reject) => {
          // A fresh PGlite directory takes ~2 s to create unloaded, 10+ s on a busy 2-core machine.
          const timer = setTimeout(
            () => reject(new Error(`npm start did not listen within 45 s:\n${output}`)),
            45_000,
          );
          const poll = setInterval(() => {
            if (/Chambers listening on/.test(output) && /^\s*writer\s+chm_\S+$/m.test(output)) done(resolve);
          }, 50);
          const done = (then: () => void) => {
            clearTimeout(timer);
            clearInterval(poll);
            then();
          };
          void serverExit.then(({ code, signal }) =>
            done(() =>
              reject(new Error(`npm start exited (${code ?? signal}) before listening:\n${output}`)),
            ),
          );
        });
        break;
      } catch (e) {
        if (attempt >= 3 || !/EADDRINUSE/.test(output)) throw e;
      }
    }
    mcpUrl = /Chambers listening on (\S+)/.exec(output)?.[1] ?? '';
    for (const m of output.matchAll(/^\s{2}(\w+)\s+(chm_\S+)$/gm))
      firstStartTokens.set(m[1] as string, m[2] as string);

    const minted = await run('npm', ['run', '--silent', 'token', '--', 'ceo'], env);
    expect(minted.code, minted.stderr).toBe(0);
    ceoToken = minted.stdout.trim();
  }, 70_000);

  afterAll(async () => {
    const child = server;
    if (child?.pid !== undefined) {
      const group = -child.pid;
      const signalGroup = (signal: NodeJS.Signals) => {
        try {
          process.kill(group, signal);
          return true;
        } catch {
          return false;
        }
      };
      signalGroup('SIGTERM');
      // The group is gone once the server has closed PGlite; give it a few seconds, then force it.
      const deadline = Date.now() + 8_000;
      while (signalGroup(0 as unknown as NodeJS.Signals) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const forced = signalGroup(0 as unknown as NodeJS.Signals) && signalGroup('SIGKILL');
      await serverExit;
      await rm(dataDir, { recursive: true, force: true });
      await rm(home, { recursive: true, force: true });
      // SIGTERM must stop the server cleanly (it closes PGlite); needing SIGKILL is a shutdown bug.
      if (forced) throw new Error(`npm start ignored SIGTERM for 8 s and was killed:\n${output}`);
    } else {
      await rm(dataDir, { recursive: true, force: true });
      await rm(home, { recursive: true, force: true });
    }
  }, 20_000);

  it('starts with one token per agent and mints more while running', () => {
    expect([...firstStartTokens.keys()].sort()).toEqual(['analyst', 'ceo', 'qa', 'researcher', 'writer']);
    expect(ceoToken).toMatch(/^chm_[\w-]{20,}$/);
    expect([...firstStartTokens.values()]).not.toContain(ceoToken);
  });

  it('tools/list shows each agent its granted tools only', async () => {
    const ceo = await inspector(ceoToken, ['--method', 'tools/list']);
    expect(ceo.code, ceo.stderr).toBe(0);
    const listed = JSON.parse(ceo.stdout) as ToolsList;
    const ceoGrants = (await loadAgentsFromDir('agents')).get('ceo')?.tools ?? [];
    expect(listed.tools.map((t) => t.name)).toEqual([...ceoGrants].sort());
    expect(listed.tools.map((t) => t.name)).toEqual(expect.arrayContaining(CASE_TOOLS));
    const mutates = new Map(registeredTools.map((t) => [t.name, t.mutates]));
    for (const tool of listed.tools) {
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      // readOnlyHint false is the protocol's default, so a writer leaves it out.
      expect(tool.annotations?.readOnlyHint ?? false, tool.name).toBe(mutates.get(tool.name) === false);
    }
    expect(listed.tools.find((t) => t.name === 'case_delete')?.annotations?.destructiveHint).toBe(true);

    // A first-start token works too, and sees only its agent's grants (agents/researcher.md).
    const researcher = await inspector(firstStartTokens.get('researcher') ?? '', ['--method', 'tools/list']);
    expect(researcher.code, researcher.stderr).toBe(0);
    const researcherGrants = (await loadAgentsFromDir('agents')).get('researcher')?.tools ?? [];
    expect((JSON.parse(researcher.stdout) as ToolsList).tools.map((t) => t.name)).toEqual(
      [...researcherGrants].sort(),
    );
  }, 30_000);

  it('advertises schemas the Inspector finds portable: no finding for any agent’s tools (--strict)', async () => {
    for (const [agent, token] of firstStartTokens) {
      const listed = await inspector(token, ['--method', 'tools/list', '--strict']);
      expect(listed.code, `${agent}: ${listed.stderr}`).toBe(0);
      expect(listed.stderr, agent).not.toMatch(/(Warning|Error): tool "|Schema portability/);
    }
  }, 30_000);

  it('tools/call: case_create then case_get, arguments verbatim, one envelope', async () => {
    const caseNumber = `ערר ${process.pid}/26`;
    // "null" must reach the string parameter as the four-letter string (C3), not as JSON null.
    const args = JSON.stringify({ case_number: caseNumber, title: 'null', appellant: '[1, 2]' });
    const created = await callJson(ceoToken, 'case_create', args);
    expect(created.code, created.stderr).toBe(0);
    const createdResult = JSON.parse(created.stdout) as CallResult;
    expect(createdResult.isError).toBe(false);
    expect(createdResult.structuredContent).toMatchObject({ ok: true, status: 'ok' });
    // C1: the text block mirrors structuredContent exactly.
    expect(createdResult.content).toHaveLength(1);
    expect(JSON.parse(createdResult.content[0]?.text ?? '')).toEqual(createdResult.structuredContent);
    const data = createdResult.structuredContent.data as { created: boolean; case: Record<string, unknown> };
    expect(data.created).toBe(true);
    expect(data.case).toMatchObject({
      case_number: caseNumber,
      title: 'null',
      appellant: '[1, 2]',
      created_by: 'ceo',
    });
    const caseId = data.case.id as string;

    const got = await callJson(ceoToken, 'case_get', { case_id: caseId });
    expect(got.code, got.stderr).toBe(0);
    const gotResult = JSON.parse(got.stdout) as CallResult;
    expect(gotResult.isError).toBe(false);
    expect(gotResult.structuredContent).toMatchObject({
      ok: true,
      status: 'ok',
      data: {
        case: { id: caseId, case_number: caseNumber, title: 'null', appellant: '[1, 2]', status: 'open' },
      },
    });

    // C4: the same call again is the same operation, replayed from the idempotency store.
    const again = await callJson(ceoToken, 'case_create', args);
    expect(again.code, again.stderr).toBe(0);
    const againResult = JSON.parse(again.stdout) as CallResult;
    expect(againResult.structuredContent).toMatchObject({ ok: true, replayed: true });
    expect((againResult.structuredContent.data as { case: { id: string } }).case.id).toBe(caseId);
  }, 30_000);

  it('an isError result exits 5 and carries the error envelope', async () => {
    const missing = await callJson(ceoToken, 'case_get', { case_id: crypto.randomUUID() });
    expect(missing.code).toBe(5);
    const result = JSON.parse(missing.stdout) as CallResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      ok: false,
      status: 'error',
      error: { code: 'not_found' },
    });
    expect(result.structuredContent.error?.hint).toEqual(expect.any(String));

    // --tool-arg JSON-parses values: title=null arrives as JSON null for a required string, which the
    // kernel refuses as invalid_args (a tool error the model can correct), never as a protocol fault.
    const nullTitle = await inspector(ceoToken, [
      '--method',
      'tools/call',
      '--tool-name',
      'case_create',
      '--tool-arg',
      `case_number=ערר ${process.pid}/27`,
      'title=null',
    ]);
    expect(nullTitle.code).toBe(5);
    const invalid = JSON.parse(nullTitle.stdout) as CallResult;
    expect(invalid.structuredContent).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    expect(invalid.structuredContent.error?.message).toMatch(/title/);
  }, 30_000);

  it('gates by acknowledgement on the embedded database; npm run owner works through the running server', async () => {
    expect(output).toMatch(/owner gates: ack\)/);
    const added = await run('npm', ['run', '--silent', 'owner', '--', 'add', 'smoke'], env);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('Owner "smoke" created');
    const link = await run('npm', ['run', '--silent', 'owner', '--', 'link', 'smoke'], env);
    expect(link.code, link.stderr).toBe(0);
    const url = link.stdout.split('\n')[0] ?? '';
    expect(url).toMatch(new RegExp(`^${mcpUrl.replace('/mcp', '')}/console/login\\?token=chl_[\\w-]+$`));
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const unknown = await run('npm', ['run', '--silent', 'owner', '--', 'link', 'nobody'], env);
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringContaining('No owner named "nobody"')]);
  }, 60_000);

  it('offers the agents’ prompts and the case resource templates to the Inspector', async () => {
    const prompts = await inspector(ceoToken, ['--method', 'prompts/list']);
    expect(prompts.code, prompts.stderr).toBe(0);
    expect(
      (JSON.parse(prompts.stdout) as { prompts: { name: string }[] }).prompts.map((p) => p.name),
    ).toContain('prepare_decision');
    const templates = await inspector(ceoToken, ['--method', 'resources/templates/list']);
    expect(templates.code, templates.stderr).toBe(0);
    expect(templates.stdout).toContain('chambers://cases/{case_id}/draft');
  }, 30_000);

  it('logged no warnings or errors while serving the calls above', () => {
    // JSON log lines at warn/error: an internal error, a store failure, an SDK transport error.
    expect(output.split('\n').filter((line) => /^\{.*"level":"(warn|error)"/.test(line))).toEqual([]);
  });

  it('refuses a wrong token with a Bearer challenge the Inspector recognises', async () => {
    const refused = await inspector('chm_not-a-real-token', ['--method', 'tools/list']);
    // Exit 3 with auth_required: the Inspector saw our 401 + WWW-Authenticate and wanted to authenticate.
    expect(refused.code).toBe(3);
    expect(refused.stdout + refused.stderr).toMatch(/auth_required/);
  }, 30_000);
});
