// Secrets stay secret: every tool of the registry is called (arguments from its input schema, through /mcp and
// /v1, well-formed and mistyped) with LOG_LEVEL=debug, around an owner signing in and deciding, uploads, a
// failed query carrying a document's text, wrong tokens and a wrong worker secret. No bearer token, console
// session or login link, CSRF token, WORKER_SECRET, database or Upstash secret appears in any log line or any
// envelope; no other agent's approval id in an envelope (the log may name it, as the audit log and the console's
// URLs do: it opens nothing for anyone but the agent that asked); no uploaded file content in a log line or an
// error envelope (a successful read may return it: that is what it is for).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { tools } from '../../entry/registries.ts';
import { defineTool } from '../../src/contract/define.ts';
import type { Envelope } from '../../src/contract/envelope.ts';
import { csrfTokenFor, loginPath, mintLoginLink } from '../../src/owner/accounts.ts';
import { type OwnerSession, signInOwner, TEST_PASSWORD } from '../harness/owner.ts';
import { errorCode, startTestServer, type TestServer } from '../harness/server.ts';
import { registryOf, sampleArgs } from '../harness/tool_args.ts';
import { makeWorld, type World, walkerAgents } from '../harness/world.ts';

const CONTENT = `CONTENT-${crypto.randomUUID()}`;
const SECRETS = {
  WORKER_SECRET: `worker-${crypto.randomUUID()}`,
  DB_PASSWORD: `dbpw-${crypto.randomUUID()}`,
  UPSTASH_TOKEN: `upstash-${crypto.randomUUID()}`,
};

// Runs a query whose parameter is a document's text against a table that does not exist: the internal error
// that follows must be logged without the parameter.
const probe_leak_run = defineTool({
  name: 'probe_leak_run',
  description: 'Test fixture: a failing query whose parameter is the given text.',
  input: { text: z.string().max(10_000).describe('Any text') },
  output: z.object({}),
  mutates: false,
  async run({ ctx, input }) {
    await ctx.db.execute(sql`insert into no_such_table (body) values (${input.text})`);
    return {};
  },
});

describe('secrets stay out of logs and envelopes', () => {
  const lines: string[] = [];
  const envelopes: { where: string; env: Envelope }[] = [];
  let s: TestServer;
  let w: World;
  let owner: OwnerSession;
  let loginToken: string;
  let analystApproval: string;

  const call = async (agent: 'ceo' | 'analyst', tool: string, args: unknown, where = tool) => {
    const env = await s.call(agent, tool, args);
    envelopes.push({ where: `${agent} ${where} (mcp)`, env });
    return env;
  };
  const callJson = async (agent: 'ceo' | 'analyst', tool: string, args: unknown) => {
    const { body } = await s.callJson(agent, tool, args);
    envelopes.push({ where: `${agent} ${tool} (v1)`, env: body });
    return body;
  };

  beforeAll(async () => {
    s = await startTestServer({
      agents: await walkerAgents(['probe_leak_run']),
      tools: [...tools, probe_leak_run],
      logLines: lines,
      env: {
        LOG_LEVEL: 'debug',
        OWNER_GATE: 'approval',
        WORKER_SECRET: SECRETS.WORKER_SECRET,
        // What a deployment's environment holds; the stores themselves are the test's.
        DATABASE_URL: `postgres://chambers:${SECRETS.DB_PASSWORD}@db.example:5432/chambers`,
        UPSTASH_REDIS_REST_URL: 'https://redis.example',
        UPSTASH_REDIS_REST_TOKEN: SECRETS.UPSTASH_TOKEN,
      },
    });
    w = await makeWorld(s);
    owner = await signInOwner(s);
    loginToken = (await mintLoginLink(s.db.db, owner.name, new Date())).token;
    // A login link opened (and left unused), as a browser would.
    await s.fetch(loginPath(loginToken));

    // Uploads carrying the content, as text and as a file; then the same again with other details (a refusal
    // that must not echo the content), and a file that is not what it claims to be.
    const text = `${CONTENT}\nעמוד ראשון של מסמך.`;
    const b64 = Buffer.from(`${CONTENT} קובץ`).toString('base64');
    await call('ceo', 'document_upload', { corpus: 'case', case_id: w.otherCaseId, text, title: 'א' });
    await call('ceo', 'document_upload', { corpus: 'case', case_id: w.otherCaseId, text, title: 'ב' });
    await callJson('ceo', 'document_upload', {
      corpus: 'style',
      content_base64: b64,
      media_type: 'text/plain',
    });
    await call('ceo', 'document_upload', {
      corpus: 'style',
      content_base64: b64,
      media_type: 'application/pdf',
      filename: 'x.pdf',
    });
    await call('ceo', 'library_add', { text, title: 'פסק דין', number: 'ע"א 1/20' });
    await call('ceo', 'internal_decision_add', { text, title: 'החלטה', number: 'ערר 1/20' });
    await call('ceo', 'probe_leak_run', { text });
    // A body cut short: the JSON parser's complaint quotes the text around the fault.
    await s.fetch('/mcp', {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${s.tokens.ceo}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"document_upload","arguments":{"text":"${CONTENT}`,
    });

    // The analyst asks for a gated call; its approval id is the analyst's alone. The owner decides it.
    const asked = await call('analyst', 'case_delete', { case_id: w.caseId, reason: 'walk' });
    analystApproval = String((asked.ok ? {} : (asked.error.details ?? {})).approval_id);
    expect(analystApproval).toMatch(/^[0-9a-f-]{36}$/);
    await owner.decide(analystApproval, 'approve', 'fine');
    // The ceo tries the analyst's approval: refused without being told anything about it.
    await call(
      'ceo',
      'case_delete',
      { case_id: w.caseId, reason: 'walk', approval_id: analystApproval },
      'case_delete with the analyst’s approval',
    );

    // Every tool, as the ceo: sampled arguments over the live objects, through both routes, then mistyped.
    const fill = {
      case_id: w.otherCaseId,
      like_case_id: w.otherCaseId,
      document_id: w.otherDocumentId,
      claim_id: w.claimId,
      into_claim_id: w.claimId,
      mission_id: w.missionId,
      lease_id: w.leaseId,
      direction_id: w.directionId,
      export_id: w.exportId,
      precedent_id: w.precedentId,
      missing_precedent_id: w.openMissingPrecedentId,
      halacha_id: w.holdingId,
      reason: 'walk',
      text: `${CONTENT} טקסט`,
    };
    for (const tool of registryOf(tools, 'approval').tools) {
      if (tool.def.ownerOnly === true) continue;
      const args = sampleArgs(tool, {}, fill);
      await call('ceo', tool.def.name, args);
      await callJson('ceo', tool.def.name, args);
      const mistyped = Object.fromEntries(Object.keys(args).map((k) => [k, { [k]: [CONTENT] }]));
      await call('ceo', tool.def.name, mistyped, `${tool.def.name} mistyped`);
    }

    // Wrong credentials: a plausible agent token, a worker secret one character off, an agent token at the
    // worker route, the owner's cookie at /mcp.
    await s.fetch('/v1/tools', { headers: { Authorization: `Bearer chm_${'x'.repeat(43)}` } });
    await s.fetch('/worker/drain', {
      method: 'POST',
      headers: { Authorization: `Bearer ${SECRETS.WORKER_SECRET}x` },
    });
    await s.fetch('/worker/drain', { method: 'POST', headers: { Authorization: `Bearer ${s.tokens.ceo}` } });
    await s.fetch('/mcp', {
      method: 'POST',
      headers: { cookie: owner.cookie, 'content-type': 'application/json' },
    });
    const drained = await s.fetch('/worker/drain', {
      method: 'POST',
      headers: { Authorization: `Bearer ${SECRETS.WORKER_SECRET}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(drained.status).toBe(200);
  }, 300_000);
  afterAll(async () => s?.close());

  /** Every secret the server holds, by name. */
  const secrets = () => {
    const session = decodeURIComponent(owner.cookie.slice(owner.cookie.indexOf('=') + 1));
    return {
      ...Object.fromEntries(Object.entries(s.tokens).map(([agent, token]) => [`token of ${agent}`, token])),
      ...SECRETS,
      'console session': session,
      'console CSRF token': csrfTokenFor(session),
      'login link': loginToken,
      'console password': TEST_PASSWORD,
    };
  };

  it('the walk logged at debug level and met errors of many kinds', () => {
    expect(lines.some((l) => l.includes('"level":"debug"'))).toBe(true);
    expect(lines.some((l) => l.includes('"msg":"internal error"'))).toBe(true);
    const codes = new Set(envelopes.map(({ env }) => errorCode(env)).filter((c) => c !== undefined));
    for (const code of [
      'invalid_args',
      'owner_gate_required',
      'not_found',
      'unsupported_media_type',
      'internal',
    ]) {
      expect(codes).toContain(code);
    }
    expect(envelopes.length).toBeGreaterThan(100);
  });

  it('no secret in any log line', () => {
    const log = lines.join('\n');
    for (const [name, secret] of Object.entries(secrets())) expect(log.includes(secret), name).toBe(false);
  });

  it('no uploaded content in any log line', () => {
    const leaking = lines.filter((l) => l.includes(CONTENT));
    expect(leaking).toEqual([]);
  });

  it('no secret in any envelope; no content and no other agent’s approval in an error envelope', () => {
    for (const { where, env } of envelopes) {
      const text = JSON.stringify(env);
      for (const [name, secret] of Object.entries(secrets()))
        expect(text.includes(secret), `${name} in ${where}`).toBe(false);
      if (!env.ok) expect(text.includes(CONTENT), `content in ${where}: ${text}`).toBe(false);
      // The ceo's own attempt with it may name what it sent; nothing else the ceo sees may.
      if (where.startsWith('ceo') && !where.includes('analyst’s approval'))
        expect(text.includes(analystApproval), `approval in ${where}`).toBe(false);
    }
  });
});
