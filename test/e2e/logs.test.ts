/**
 * The log lines: JSON, and every line of an authenticated request names its request id and agent, every
 * line of a tool call also the tool (README "Configuration", LOG_LEVEL). debug adds a line per request and
 * per token lookup; info has neither.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorText } from '../../src/log.ts';
import { expectOk, startTestServer, type TestServer } from '../harness/server.ts';

type Line = Record<string, unknown>;

describe('log lines', () => {
  const debugLines: string[] = [];
  const infoLines: string[] = [];
  let debug: TestServer;
  let info: TestServer;
  beforeAll(async () => {
    debug = await startTestServer({ logLines: debugLines, env: { LOG_LEVEL: 'debug' } });
    info = await startTestServer({ logLines: infoLines, env: { LOG_LEVEL: 'info' } });
  });
  afterAll(async () => {
    await debug?.close();
    await info?.close();
  });

  const parse = (lines: string[]) => lines.map((l) => JSON.parse(l) as Line);

  it('a tool call’s lines carry request_id, agent and tool', async () => {
    expectOk(await info.callJson('ceo', 'case_list', {}).then((r) => r.body));
    const calls = parse(infoLines).filter((l) => l.msg === 'tool call');
    expect(calls.length).toBeGreaterThan(0);
    for (const line of calls) {
      expect(line).toMatchObject({
        level: 'info',
        agent: 'ceo',
        tool: 'case_list',
        status: expect.any(String),
      });
      expect(line.request_id).toEqual(expect.any(String));
    }
    // info has no per-request or token lines.
    expect(parse(infoLines).filter((l) => l.level === 'debug')).toEqual([]);
  });

  it('LOG_LEVEL=debug adds a line per request (with the agent) and per token lookup', async () => {
    const res = await debug.callJson('analyst', 'case_list', {});
    expect(res.status).toBe(200);
    const lines = parse(debugLines);
    const request = lines.find((l) => l.msg === 'request' && l.path === '/v1/tools/case_list');
    expect(request).toMatchObject({ level: 'debug', method: 'POST', status: 200, agent: 'analyst' });
    expect(request?.duration_ms).toEqual(expect.any(Number));
    expect(lines.find((l) => l.msg === 'token looked up')).toMatchObject({ found: true, agent: 'analyst' });
    const refused = await debug.fetch('/v1/tools', { headers: { Authorization: 'Bearer chm_nope' } });
    expect(refused.status).toBe(401);
    const denied = parse(debugLines).find((l) => l.msg === 'request' && l.status === 401);
    expect(denied).toBeDefined();
    expect(denied?.agent).toBeUndefined();
  });
});

describe('errorText: errors as logged and stored', () => {
  it('a failed query without its parameters, a URL without its password, a JSON fault without its text', () => {
    const cause = new Error('relation "x" does not exist');
    const failed = Object.assign(
      new Error('Failed query: insert into x values ($1)\nparams: the body text'),
      {
        query: 'insert into x values ($1)',
        params: ['the body text'],
        cause,
      },
    );
    expect(errorText(failed)).toBe(
      'Failed query: insert into x values ($1) (1 parameter(s) withheld): relation "x" does not exist',
    );
    expect(errorText(failed, { stack: true })).not.toContain('the body text');
    expect(errorText(failed, { stack: true })).toMatch(/\n\s+at /);
    expect(errorText(new Error('connect to postgres://u:hunter2@db.example:5432/x failed'))).toBe(
      'connect to postgres://u:***@db.example:5432/x failed',
    );
    let syntax: unknown;
    try {
      JSON.parse('{"text": "the body text');
    } catch (e) {
      syntax = e;
    }
    expect(errorText(syntax)).toBe('not valid JSON (the text is withheld)');
    expect(errorText('plain')).toBe('plain');
  });
});
