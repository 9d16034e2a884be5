// The error side of the envelope (docs/contract.md "Envelope" and "Error codes"): internals stay in the log, store outages are
// dependency_unavailable, rate limiting says when to retry, the owner gate says what is missing.

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { toolList as tools } from '../../functions/index.ts';
import { defineTool, type ToolContext } from '../../src/contract/define.ts';
import { advertisedEnvelope, type Envelope, errorEnvelope } from '../../src/contract/envelope.ts';
import { errorCatalogue, errorCodes, isToolError, ToolError } from '../../src/contract/errors.ts';
import { callTool, errorToEnvelope, isDependencyFailure } from '../../src/contract/execute.ts';
import { checkOwnerGate, ownerAckOf } from '../../src/contract/gates.ts';
import { sha256Hex } from '../../src/contract/hash.ts';
import { createRateLimiter } from '../../src/contract/rate_limit.ts';
import { buildRegistry } from '../../src/contract/registry.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { auditLog } from '../../src/db/schema/audit_log.ts';
import { createPostgresKv } from '../../src/kv/postgres.ts';
import { createLogger } from '../../src/log.ts';
import { toolContext } from '../harness/context.ts';
import { errorCode, expectOk, startTestServer, type TestServer } from '../harness/server.ts';

const fixture_boom_get = defineTool({
  name: 'fixture_boom_get',
  description: 'Test fixture: fails with an internal error whose message carries a secret-looking SQL text.',
  input: {},
  output: z.object({}),
  mutates: false,
  async run() {
    throw new Error('SELECT secret_column FROM secret_ledger WHERE token = 42');
  },
});

const fixture_boom_run = defineTool({
  name: 'fixture_boom_run',
  description: 'Test fixture: a mutating tool that fails internally, to check its audit row and its key.',
  input: { key: z.string().max(1000).describe('The natural key') },
  output: z.object({}),
  mutates: 'write',
  idempotencyKey: { describe: 'key', of: (i) => i.key },
  async run() {
    throw new TypeError('Cannot read properties of undefined (reading "secret_field")');
  },
});

const fixtures = [...tools, fixture_boom_get, fixture_boom_run];
const grants = { ceo: ['fixture_boom_get', 'fixture_boom_run'] } as const;
const envelopeOf = (result: { structuredContent?: unknown }) => result.structuredContent as Envelope;

describe('internal errors hide their details', () => {
  let s: TestServer;
  const logLines: string[] = [];
  beforeAll(async () => {
    s = await startTestServer({ tools: fixtures, grants, logLines });
  });
  afterAll(async () => s?.close());

  it('answers internal with the request id; the detail is only in the log', async () => {
    const client = await s.connect('ceo', { headers: { 'x-request-id': 'req-boom-1' } });
    const result = await client.callTool({ name: 'fixture_boom_get', arguments: {} });
    expect(result.isError).toBe(true);
    const env = envelopeOf(result);
    expect(errorCode(env)).toBe('internal');
    expect(env.ok ? undefined : env.error.details).toEqual({ request_id: 'req-boom-1' });
    expect(env.message).toContain('req-boom-1');
    expect(env.ok ? '' : env.error.hint).toMatch(/request id/);
    // Nothing of the failure reaches the caller, neither in structuredContent nor in the text block.
    expect(JSON.stringify(result)).not.toMatch(/secret|SELECT|ledger|\.ts:\d+/);

    const logged = logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const error = logged.find((l) => l.msg === 'internal error' && l.request_id === 'req-boom-1');
    expect(error).toMatchObject({ level: 'error', tool: 'fixture_boom_get' });
    expect(String(error?.error)).toContain('SELECT secret_column FROM secret_ledger');
    // The stack goes to the log too, so the team can find the line.
    expect(String(error?.error)).toMatch(/errors\.test\.ts/);
  });

  it('audits a mutating internal failure as internal and releases its key', async () => {
    const first = await s.call('ceo', 'fixture_boom_run', { key: 'k-boom' });
    expect(errorCode(first)).toBe('internal');
    expect(JSON.stringify(first)).not.toMatch(/secret_field|TypeError/);
    // Not stored: the retry runs (and fails) again instead of answering in_progress or a replay.
    expect(errorCode(await s.call('ceo', 'fixture_boom_run', { key: 'k-boom' }))).toBe('internal');
    const rows = await s.db.db.select().from(auditLog).where(sql`${auditLog.tool} = 'fixture_boom_run'`);
    expect(rows.map((r) => [r.outcome, r.errorCode, r.idempotencyKey])).toEqual([
      ['error', 'internal', 'k-boom'],
      ['error', 'internal', 'k-boom'],
    ]);
  });

  it('keeps a key longer than 200 characters in the audit row as its SHA-256 digest', async () => {
    const long = 'ק'.repeat(201);
    expect(errorCode(await s.call('ceo', 'fixture_boom_run', { key: long }))).toBe('internal');
    const rows = await s.db.db.select().from(auditLog).where(sql`${auditLog.tool} = 'fixture_boom_run'`);
    expect(rows.map((r) => r.idempotencyKey)).toContain(`sha256:${sha256Hex(long)}`);
    expect(rows.map((r) => r.idempotencyKey)).not.toContain(long);
  });

  it('maps errors to envelopes in one place: ToolErrors as given, catalogue hints by default', () => {
    const ctx = { requestId: 'req-x', log: createLogger('silent') };
    const given = errorToEnvelope(
      new ToolError('not_found', 'No case', { details: { case_id: 'c' }, hint: 'Look it up' }),
      ctx,
      't',
    );
    expect(given).toEqual({
      ok: false,
      status: 'error',
      error: { code: 'not_found', message: 'No case', details: { case_id: 'c' }, hint: 'Look it up' },
      message: 'No case',
    });
    const defaulted = errorToEnvelope(new ToolError('invalid_state', 'Archived'), ctx, 't');
    expect(defaulted.ok ? undefined : defaulted.error).toEqual({
      code: 'invalid_state',
      message: 'Archived',
      hint: errorCatalogue.invalid_state.hint,
    });
    const thrownString = errorToEnvelope('a string with secret', ctx, 't');
    expect(errorCode(thrownString)).toBe('internal');
    expect(JSON.stringify(thrownString)).not.toContain('secret');
  });

  it('keeps a catalogue entry (HTTP status, retryability, hint) for every code; the output schema keeps code a string', () => {
    for (const code of errorCodes) {
      const entry = errorCatalogue[code];
      expect(entry.http, code).toBeGreaterThanOrEqual(400);
      expect(entry.hint.length, code).toBeGreaterThan(10);
      expect(errorEnvelope(code, 'm')).toMatchObject({
        ok: false,
        status: 'error',
        error: { code, hint: entry.hint },
      });
    }
    expect(errorCatalogue.in_progress.retryable).toBe(true);
    expect(errorCatalogue.invalid_args.retryable).toBe(false);
    // The codes are documented once (docs/contract.md), not repeated as an enum in every tool's schema.
    const errorSchema = (
      advertisedEnvelope({ type: 'object' }).properties as Record<
        string,
        { properties?: Record<string, unknown> }
      >
    ).error;
    expect(errorSchema?.properties?.code).toEqual({ type: 'string' });
  });
});

describe('a database that cannot be reached', () => {
  const ctxOn = (db: ToolContext['db'], logs: string[]): ToolContext =>
    toolContext(
      { db, kv: createPostgresKv(db) },
      {
        requestId: 'req-db-down',
        // The app hands tools a logger that already carries the request id; this one does the same.
        log: createLogger('info', { request_id: 'req-db-down' }, (line) => logs.push(line)),
      },
    );
  const registry = buildRegistry(tools);
  const all = new Set(tools.map((t) => t.name));
  const tool = (name: string) => {
    const t = registry.get(name);
    if (t === undefined) throw new Error(`${name} is not registered`);
    return t;
  };

  it('answers dependency_unavailable for a refused PostgreSQL connection, read and write alike', async () => {
    const handle = openPostgres('postgres://chambers:hunter2@127.0.0.1:1/nowhere', { max: 1 });
    const logs: string[] = [];
    try {
      for (const [name, args] of [
        ['case_get', { case_id: crypto.randomUUID() }],
        ['case_list', {}],
        ['case_create', { case_number: 'ערר 1/25', title: 't' }],
      ] as const) {
        const env = await callTool({ tool: tool(name), args, ctx: ctxOn(handle.db, logs), grants: all });
        expect(errorCode(env), name).toBe('dependency_unavailable');
        expect(env.ok ? '' : env.error.hint).toMatch(/nothing partial was written/);
        expect(JSON.stringify(env)).not.toMatch(/hunter2|127\.0\.0\.1|ECONNREFUSED|nowhere/);
      }
    } finally {
      await handle.close();
    }
    // The cause is logged, and the failed audit write of the mutating call is logged, not thrown.
    expect(logs.some((l) => l.includes('dependency unavailable') && l.includes('req-db-down'))).toBe(true);
    expect(logs.some((l) => l.includes('audit write failed'))).toBe(true);
  });

  it('answers dependency_unavailable through the server once its database is gone', async () => {
    const s = await startTestServer();
    try {
      const created = expectOk<{ case: { id: string } }>(
        await s.call('ceo', 'case_create', { case_number: 'ערר DB-1/25', title: 't' }),
      );
      // The token check is cached by then, so the request reaches the tool, whose database is closed.
      await s.db.close();
      const env = await s.call('ceo', 'case_get', { case_id: created.case.id });
      expect(errorCode(env)).toBe('dependency_unavailable');
      expect(env.ok ? undefined : env.error.details).toHaveProperty('request_id');
      expect(errorCode(await s.call('ceo', 'case_create', { case_number: 'ערר DB-2/25', title: 't' }))).toBe(
        'dependency_unavailable',
      );
    } finally {
      await s.close();
    }
  });

  it('tells store outages from bugs by error code and cause, not by guesswork on any message', () => {
    const withCode = (code: string) => Object.assign(new Error('x'), { code });
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '08006', '08001', '57P01', '53300']) {
      expect(isDependencyFailure(withCode(code)), code).toBe(true);
    }
    expect(isDependencyFailure(new Error('wrapped', { cause: withCode('ECONNREFUSED') }))).toBe(true);
    expect(isDependencyFailure(new Error('PGlite is closed'))).toBe(true);
    for (const code of ['23505', '42P01', '22P02'])
      expect(isDependencyFailure(withCode(code)), code).toBe(false);
    expect(isDependencyFailure(new Error('SELECT secret'))).toBe(false);
    expect(isDependencyFailure(null)).toBe(false);
  });
});

describe('rate limiting', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { RATE_LIMIT_PER_SECOND: '2', RATE_LIMIT_BURST: '3' } });
  });
  afterAll(async () => s?.close());

  it('answers rate_limited with retry_after_ms once an agent’s burst is spent, per agent, and recovers', async () => {
    // Sent together, so a slow machine cannot refill the bucket between them.
    const results = await Promise.all(Array.from({ length: 8 }, () => s.call('researcher', 'case_list', {})));
    const ok = results.filter((r) => r.ok);
    const limited = results.filter((r) => errorCode(r) === 'rate_limited');
    expect(ok.length + limited.length).toBe(results.length);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(ok.length).toBeLessThanOrEqual(4);
    const wait = Math.max(...limited.map((r) => Number(r.ok ? 0 : r.error.details?.retry_after_ms)));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(500);
    expect(limited[0]?.ok ? '' : limited[0]?.error.hint).toMatch(/retry_after_ms/);
    // Another agent has its own bucket.
    expect((await s.call('writer', 'case_list', {})).ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, wait + 50));
    expect((await s.call('researcher', 'case_list', {})).ok).toBe(true);
  });

  it('audits a rate-limited mutation, and the plain JSON route adds Retry-After', async () => {
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        s.call('ceo', 'case_create', { case_number: `ערר RL-${i}/25`, title: 't' }),
      ),
    );
    const rows = await s.db.db.select().from(auditLog).where(sql`${auditLog.errorCode} = 'rate_limited'`);
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows[0]).toMatchObject({
      agent: 'ceo',
      tool: 'case_create',
      outcome: 'error',
      idempotencyKey: null,
    });
    const replies = await Promise.all(
      Array.from({ length: 8 }, () =>
        s.fetch('/v1/tools/case_list', {
          method: 'POST',
          headers: { Authorization: `Bearer ${s.tokens.qa}`, 'Content-Type': 'application/json' },
          body: '{}',
        }),
      ),
    );
    const limited = replies.find((r) => r.status === 429);
    expect(limited).toBeDefined();
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(errorCode((await limited?.json()) as Envelope)).toBe('rate_limited');
    await Promise.all(replies.filter((r) => r !== limited).map((r) => r.body?.cancel()));
  });

  it('refills at the configured rate (unit, with a controlled clock)', () => {
    let now = 0;
    const limiter = createRateLimiter({ perSecond: 2, burst: 3, now: () => now });
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 0]);
    expect(limiter.take('a')).toBe(500);
    expect(limiter.take('b')).toBe(0);
    now = 490;
    const wait = limiter.take('a');
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(20);
    now = 500;
    expect(limiter.take('a')).toBe(0);
    now = 100_000;
    // The bucket never holds more than the burst.
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([
      0, 0, 0, 500,
    ]);
  });
});

describe('owner gate', () => {
  const refusal = (input: Record<string, unknown>) => {
    try {
      checkOwnerGate('thing_delete', ownerAckOf(input));
    } catch (e) {
      if (isToolError(e)) return e;
      throw e;
    }
    throw new Error('the gate let the call through');
  };

  it('says whether the ack, the reason or both are missing', () => {
    expect(refusal({}).details).toEqual({ missing: ['owner_ack: true', 'reason'] });
    expect(refusal({ reason: 'approved' }).details).toEqual({ missing: ['owner_ack: true'] });
    expect(refusal({ owner_ack: false, reason: 'approved' }).details).toEqual({
      missing: ['owner_ack: true'],
    });
    // Only the boolean true counts as an acknowledgement.
    expect(refusal({ owner_ack: 'true', reason: 'approved' }).details).toEqual({
      missing: ['owner_ack: true'],
    });
    expect(refusal({ owner_ack: true }).details).toEqual({ missing: ['reason'] });
    expect(refusal({ owner_ack: true, reason: ' \n\t ' }).details).toEqual({ missing: ['reason'] });
    const e = refusal({});
    expect(e.code).toBe('owner_gate_required');
    expect(e.message).toContain('thing_delete');
    expect(e.hint).toMatch(/Never set owner_ack on your own/);
  });

  it('returns the ack and the trimmed reason for the audit log', () => {
    const given = ownerAckOf({ owner_ack: true, reason: '  the chair agreed ' });
    expect(given).toEqual({ ack: true, reason: 'the chair agreed' });
    expect(() => checkOwnerGate('thing_delete', given)).not.toThrow();
  });
});
