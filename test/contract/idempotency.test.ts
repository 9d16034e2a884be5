// C4, request layer, through the kernel's call pipeline (callTool) with the real registry and decoder, against
// both key-value adapters: the Postgres table on PGlite, and Upstash (real client → REST bridge → local Redis).

import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { toolList as tools } from '../../functions/index.ts';
import { startUpstashBridge, type UpstashBridge } from '../../scripts/dev/upstash_bridge.ts';
import { defineTool, type ToolContext } from '../../src/contract/define.ts';
import type { Envelope } from '../../src/contract/envelope.ts';
import { ToolError } from '../../src/contract/errors.ts';
import { callTool } from '../../src/contract/execute.ts';
import { sha256Hex } from '../../src/contract/hash.ts';
import { acquireIdempotency, idempotencyKvKey } from '../../src/contract/idempotency.ts';
import { buildRegistry } from '../../src/contract/registry.ts';
import { openPostgres, type PostgresHandle } from '../../src/db/postgres.ts';
import { auditLog } from '../../src/db/schema/audit_log.ts';
import { cases } from '../../src/db/schema/cases.ts';
import { createPostgresKv } from '../../src/kv/postgres.ts';
import type { KvStore } from '../../src/kv/types.ts';
import { createUpstashKv } from '../../src/kv/upstash.ts';
import { toolContext } from '../harness/context.ts';
import { createTestDb, type TestDb } from '../harness/databases.ts';
import { describeWithService, redisTestPrefix } from '../harness/services.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

// Fixture state, keyed by the idempotency key each test makes unique.
const runs = new Map<string, number>();
const gates = new Map<string, { started: () => void; release: Promise<void> }>();
const failures = new Map<string, 'tool_error' | 'crash'>();

const input = {
  key: z.string().min(1).max(100).describe('The natural key'),
  note: z.string().max(100).optional().describe('Part of the arguments, not of the key'),
  count: z.number().int().optional().describe('An integer, to provoke validation failures'),
};

/** Counts its runs; waits on a gate the test controls; fails once when told to. */
const fixture_thing_run = defineTool({
  name: 'fixture_thing_run',
  description: 'Test fixture: a mutating tool whose runs, waits and failures the idempotency tests control.',
  input,
  output: z.object({ key: z.string(), run: z.int(), note: z.string().nullable() }),
  mutates: 'write',
  idempotencyKey: { describe: 'key', of: (i) => i.key },
  async run({ input: i }) {
    const n = (runs.get(i.key) ?? 0) + 1;
    runs.set(i.key, n);
    const gate = gates.get(i.key);
    if (gate !== undefined) {
      gate.started();
      await gate.release;
    }
    const failure = failures.get(i.key);
    if (failure !== undefined) {
      failures.delete(i.key);
      if (failure === 'tool_error') throw new ToolError('invalid_state', 'not yet');
      throw new Error('crash inside the tool');
    }
    return { key: i.key, run: n, note: i.note ?? null };
  },
});

const fixture_gated_run = defineTool({
  name: 'fixture_gated_run',
  description: 'Test fixture: an owner-gated mutating tool, to show a refused gate stores nothing.',
  input: { key: input.key },
  output: z.object({ key: z.string() }),
  mutates: 'destructive',
  ownerGate: true,
  idempotencyKey: { describe: 'key', of: (i) => i.key },
  async run({ input: i }) {
    runs.set(i.key, (runs.get(i.key) ?? 0) + 1);
    return { key: i.key };
  },
});

const registry = buildRegistry([...tools, fixture_thing_run, fixture_gated_run]);
const everything = new Set(registry.tools.map((t) => t.def.name));

function registered(name: string) {
  const tool = registry.get(name);
  if (tool === undefined) throw new Error(`${name} is not registered`);
  return tool;
}

interface Setup {
  db: TestDb;
  kv: KvStore;
  /** A key-value store of the same kind that cannot be reached. */
  deadKv: KvStore;
}

function idempotencySuite(getSetup: () => Setup) {
  let requests = 0;
  // Request ids name the audit rows of a call; the suites share a database, so each has its own ids.
  const suite = randomBytes(4).toString('hex');
  const ctx = (agent = 'ceo', kv?: KvStore): ToolContext =>
    toolContext(
      { db: getSetup().db.db, kv: kv ?? getSetup().kv },
      { agent, requestId: `req-${suite}-${++requests}` },
    );
  const call = (tool: string, args: unknown, agent = 'ceo', kv?: KvStore): Promise<Envelope> =>
    callTool({ tool: registered(tool), args, ctx: ctx(agent, kv), grants: everything });
  const uniqueKey = (label: string) => `${label}-${randomBytes(6).toString('hex')}`;
  const stored = async (tool: string, key: string, agent = 'ceo') =>
    getSetup().kv.get(idempotencyKvKey({ agent, tool, key }));
  const auditFor = (requestPrefix: string[]) =>
    getSetup()
      .db.db.select()
      .from(auditLog)
      .then((rows) => rows.filter((r) => requestPrefix.includes(r.requestId)));
  const code = (e: Envelope) => (e.ok ? undefined : e.error.code);

  it('replays a finished call: the stored envelope with replayed: true, the tool not run again', async () => {
    const key = uniqueKey('replay');
    const first = await call('fixture_thing_run', { key, note: 'a' });
    expect(first).toMatchObject({ ok: true, status: 'ok', data: { key, run: 1, note: 'a' } });
    expect(first).not.toHaveProperty('replayed');
    const second = await call('fixture_thing_run', { key, note: 'a' });
    expect(second).toEqual({ ...first, replayed: true });
    expect(runs.get(key)).toBe(1);
    expect(await stored('fixture_thing_run', key)).not.toBeNull();
  });

  it('replays case_create without a second row, and audits the replay as "replayed"', async () => {
    const number = uniqueKey('ערר');
    const before = requests;
    const first = await call('case_create', { case_number: number, title: 'כותרת' });
    const second = await call('case_create', { case_number: number, title: 'כותרת' });
    expect(second).toEqual({ ...first, replayed: true });
    const rows = await getSetup().db.db.select().from(cases).where(eq(cases.caseNumber, number));
    expect(rows).toHaveLength(1);
    const audit = await auditFor([`req-${suite}-${before + 1}`, `req-${suite}-${before + 2}`]);
    expect(audit.map((r) => r.outcome).sort()).toEqual(['ok', 'replayed']);
  });

  it('answers in_progress while the first call holds the key, then replays its result', async () => {
    const key = uniqueKey('slow');
    const started = deferred();
    const release = deferred();
    gates.set(key, { started: started.resolve, release: release.promise });
    const slow = call('fixture_thing_run', { key });
    await started.promise;
    const concurrent = await Promise.all([1, 2, 3].map(() => call('fixture_thing_run', { key })));
    for (const env of concurrent) {
      expect(code(env)).toBe('in_progress');
      expect(env.ok ? undefined : env.error.details).toMatchObject({
        key,
        retry_after_ms: expect.any(Number),
      });
    }
    // Other arguments for the same key are a conflict even while the first call runs.
    expect(code(await call('fixture_thing_run', { key, note: 'other' }))).toBe('idempotency_key_reuse');
    release.resolve();
    const done = await slow;
    gates.delete(key);
    expect(done).toMatchObject({ ok: true, data: { run: 1 } });
    expect(await call('fixture_thing_run', { key })).toEqual({ ...done, replayed: true });
    expect(runs.get(key)).toBe(1);
  });

  it('lets exactly one of many simultaneous identical calls run', async () => {
    const key = uniqueKey('race');
    const results = await Promise.all(Array.from({ length: 8 }, () => call('fixture_thing_run', { key })));
    expect(runs.get(key)).toBe(1);
    const fresh = results.filter((r) => r.ok && !('replayed' in r));
    expect(fresh).toHaveLength(1);
    for (const r of results) {
      if (r === fresh[0]) continue;
      // Each other call either saw the lock or the finished result, never a second run.
      if (r.ok) expect(r).toEqual({ ...fresh[0], replayed: true });
      else expect(code(r)).toBe('in_progress');
    }
  });

  it('refuses the same key with different arguments after the call finished (idempotency_key_reuse)', async () => {
    const key = uniqueKey('reuse');
    expect((await call('fixture_thing_run', { key, note: 'a' })).ok).toBe(true);
    const other = await call('fixture_thing_run', { key, note: 'b' });
    expect(code(other)).toBe('idempotency_key_reuse');
    expect(other.ok ? undefined : other.error.details).toEqual({ key });
    expect(runs.get(key)).toBe(1);
    // Argument order and JSON text vs value do not make arguments "different".
    expect(await call('fixture_thing_run', { note: 'a', key })).toMatchObject({ ok: true, replayed: true });
  });

  it('scopes keys per agent and per tool', async () => {
    const key = uniqueKey('scope');
    expect((await call('fixture_thing_run', { key }, 'ceo')).ok).toBe(true);
    const otherAgent = await call('fixture_thing_run', { key }, 'analyst');
    expect(otherAgent).toMatchObject({ ok: true, data: { run: 2 } });
    expect(otherAgent).not.toHaveProperty('replayed');
    const otherTool = await call('fixture_gated_run', { key, owner_ack: true, reason: 'ok' }, 'ceo');
    expect(otherTool.ok).toBe(true);
    expect(otherTool).not.toHaveProperty('replayed');
  });

  it('releases the key after an error result: a retry runs again', async () => {
    for (const failure of ['tool_error', 'crash'] as const) {
      const key = uniqueKey(failure);
      failures.set(key, failure);
      const failed = await call('fixture_thing_run', { key });
      expect(code(failed)).toBe(failure === 'tool_error' ? 'invalid_state' : 'internal');
      expect(await stored('fixture_thing_run', key)).toBeNull();
      const retry = await call('fixture_thing_run', { key });
      expect(retry).toMatchObject({ ok: true, data: { run: 2 } });
      expect(retry).not.toHaveProperty('replayed');
    }
  });

  it('never touches the store for validation failures or a refused owner gate', async () => {
    const key = uniqueKey('invalid');
    const before = requests;
    expect(code(await call('fixture_thing_run', { key, count: 'abc' }))).toBe('invalid_args');
    expect(code(await call('fixture_thing_run', { key, count: 1.5 }))).toBe('invalid_args');
    expect(code(await call('fixture_thing_run', { key, cuont: 1 }))).toBe('invalid_args');
    expect(code(await call('fixture_gated_run', { key }))).toBe('owner_gate_required');
    expect(code(await call('fixture_gated_run', { key, owner_ack: true, reason: ' ' }))).toBe(
      'owner_gate_required',
    );
    expect(await stored('fixture_thing_run', key)).toBeNull();
    expect(await stored('fixture_gated_run', key)).toBeNull();
    expect(runs.get(key)).toBeUndefined();
    // Audited all the same, without a key: the call never reached the idempotency layer.
    const audit = await auditFor(Array.from({ length: 5 }, (_, i) => `req-${suite}-${before + i + 1}`));
    expect(audit).toHaveLength(5);
    for (const r of audit) expect(r.idempotencyKey).toBeNull();
    // The valid call afterwards runs normally: nothing was remembered.
    expect(await call('fixture_thing_run', { key, count: 2 })).toMatchObject({ ok: true, data: { run: 1 } });
  });

  it('shows a long key (a whole document) as its digest in in_progress and idempotency_key_reuse', async () => {
    const key = `${uniqueKey('long')}:${'מסמך ארוך '.repeat(100)}`;
    const scope = { agent: 'ceo', tool: 'fixture_thing_run', key };
    const held = await acquireIdempotency(getSetup().kv, { ...scope, args: { key, note: 'a' } });
    const refusal = async (args: Record<string, unknown>) => {
      try {
        await acquireIdempotency(getSetup().kv, { ...scope, args });
      } catch (e) {
        if (e instanceof ToolError) return e;
      }
      throw new Error('expected a ToolError');
    };
    const shown = `sha256:${sha256Hex(key)}`;
    const busy = await refusal({ key, note: 'a' });
    expect([busy.code, busy.details]).toEqual(['in_progress', { key: shown, retry_after_ms: 500 }]);
    expect(busy.message).not.toContain('מסמך ארוך');
    const reuse = await refusal({ key, note: 'b' });
    expect([reuse.code, reuse.details]).toEqual(['idempotency_key_reuse', { key: shown }]);
    await held.settle({ ok: true, status: 'ok', data: {}, message: 'done' });
  });

  it('lets a crashed holder’s lock lapse, and its late settle changes nothing', async () => {
    const key = uniqueKey('crashed');
    const args = { key, note: 'n' };
    // A call that claimed the key and then died: it never settles, and its lock is short-lived.
    const crashed = await acquireIdempotency(
      getSetup().kv,
      { agent: 'ceo', tool: 'fixture_thing_run', key, args },
      { lockTtlMs: 500 },
    );
    expect(crashed.replay).toBeUndefined();
    expect(code(await call('fixture_thing_run', args))).toBe('in_progress');
    await sleep(700);
    const after = await call('fixture_thing_run', args);
    expect(after).toMatchObject({ ok: true, data: { run: 1 } });
    // The stale holder wakes up and settles: the compare-and-set on its token must fail.
    await crashed.settle({ ok: true, status: 'ok', data: { stale: true }, message: 'stale' });
    expect(await call('fixture_thing_run', args)).toEqual({ ...after, replayed: true });
  });

  it('answers dependency_unavailable when the store is unreachable, without running the tool or writing a case', async () => {
    const number = uniqueKey('ערר dead');
    const before = requests;
    const env = await call('case_create', { case_number: number, title: 'x' }, 'ceo', getSetup().deadKv);
    expect(code(env)).toBe('dependency_unavailable');
    expect(env.ok ? '' : env.error.hint).toMatch(/nothing partial was written/);
    expect(JSON.stringify(env)).not.toMatch(/ECONNREFUSED|fetch failed|closed/i);
    expect(await getSetup().db.db.select().from(cases).where(eq(cases.caseNumber, number))).toEqual([]);
    const key = uniqueKey('dead');
    expect(code(await call('fixture_thing_run', { key }, 'ceo', getSetup().deadKv))).toBe(
      'dependency_unavailable',
    );
    expect(runs.get(key)).toBeUndefined();
    // The failed call itself is audited (the database is up), with its error code.
    const audit = await auditFor([`req-${suite}-${before + 1}`]);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      outcome: 'error',
      errorCode: 'dependency_unavailable',
      idempotencyKey: number,
    });
  });
}

// One database for the file (audit rows and cases); every test uses its own keys and case numbers.
let db: TestDb | undefined;
beforeAll(async () => {
  db = await createTestDb('pglite');
});
afterAll(async () => db?.close());
const theDb = () => {
  if (db === undefined) throw new Error('database not ready');
  return db;
};

describe('idempotency [postgres kv on pglite]', () => {
  let dead: PostgresHandle | undefined;
  beforeAll(() => {
    // The same adapter over a database server that refuses connections.
    dead = openPostgres('postgres://postgres@127.0.0.1:1/gone', { max: 1 });
  });
  afterAll(async () => dead?.close());
  idempotencySuite(() => {
    if (dead === undefined) throw new Error('setup not ready');
    return { db: theDb(), kv: createPostgresKv(theDb().db), deadKv: createPostgresKv(dead.db) };
  });
});

describeWithService('redis', 'idempotency [upstash kv via the bridge]', () => {
  let kv: KvStore | undefined;
  let deadKv: KvStore | undefined;
  let bridge: UpstashBridge | undefined;
  beforeAll(async () => {
    bridge = await startUpstashBridge({ keyPrefix: redisTestPrefix('idempotency') });
    kv = createUpstashKv({ url: bridge.url, token: bridge.token });
    // A bridge that was started and closed again: its port refuses connections.
    const gone = await startUpstashBridge();
    await gone.close();
    deadKv = createUpstashKv({ url: gone.url, token: gone.token });
  });
  afterAll(async () => bridge?.close());
  idempotencySuite(() => {
    if (kv === undefined || deadKv === undefined) throw new Error('setup not ready');
    return { db: theDb(), kv, deadKv };
  });
});
