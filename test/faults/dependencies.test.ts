/**
 * The backing stores failed on purpose, on the local PostgreSQL and Redis behind the Upstash REST bridge, each
 * reached through a fault proxy (test/harness/fault_proxy.ts) so the shared services stay up: the database
 * refusing connections, a connection killed inside a mutating transaction (pg_terminate_backend), the
 * key-value store down, and each of them answering slower than its bound (src/db/timeouts.ts, shortened
 * here). Every call answers `dependency_unavailable` (retryable, with a hint) within its bound, writes
 * nothing partial (every table counted; an audit row only as the refusal), leaves no transaction open and
 * no idempotency lock held, and the same call succeeds once the store is back, with no restart.
 * PGlite, which has no connection to lose, is covered by test/e2e/services.test.ts (a closed database).
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jobHandlers, tools } from '../../entry/registries.ts';
import { startUpstashBridge, type UpstashBridge } from '../../scripts/dev/upstash_bridge.ts';
import { loadAgentsFromDir } from '../../src/agents/load_node.ts';
import { mintToken } from '../../src/auth/tokens.ts';
import type { Envelope } from '../../src/contract/envelope.ts';
import { errorCatalogue } from '../../src/contract/errors.ts';
import { explainKvError } from '../../src/db/node_stores.ts';
import { openPostgres, type PostgresHandle } from '../../src/db/postgres.ts';
import { rowsOf } from '../../src/db/types.ts';
import { createUpstashKv } from '../../src/kv/upstash.ts';
import { createChambers } from '../../src/server.ts';
import { createTestDb, type TestDb } from '../harness/databases.ts';
import { type FaultProxy, startFaultProxy } from '../harness/fault_proxy.ts';
import { expectOk } from '../harness/server.ts';
import { describeWithService, redisTestPrefix } from '../harness/services.ts';

// The bounds of this app, short so the suite takes seconds (production values: src/db/timeouts.ts).
const TIMEOUTS = { connectMs: 800, statementMs: 1_000, queryMs: 1_500, idleInTransactionMs: 3_000 };
const KV_TIMEOUT = 800;

interface Stack {
  direct: TestDb;
  app: PostgresHandle;
  pgProxy: FaultProxy;
  kvProxy: FaultProxy;
  bridge: UpstashBridge;
  call(tool: string, args: unknown): Promise<{ status: number; body: Envelope; ms: number }>;
  close(): Promise<void>;
}

async function startStack(): Promise<Stack> {
  const direct = await createTestDb('postgres');
  const u = new URL(direct.url as string);
  const pgProxy = await startFaultProxy({ host: u.hostname, port: Number(u.port || 5432) });
  const app = openPostgres(pgProxy.via(direct.url as string), { max: 4, timeouts: TIMEOUTS });
  const bridge = await startUpstashBridge({ keyPrefix: redisTestPrefix('faults') });
  const kvProxy = await startFaultProxy({ host: '127.0.0.1', port: Number(new URL(bridge.url).port) });
  const kv = createUpstashKv({ url: kvProxy.via(bridge.url), token: bridge.token, timeoutMs: KV_TIMEOUT });
  const chambers = createChambers({
    agents: await loadAgentsFromDir('agents'),
    env: { LOG_LEVEL: 'silent', RATE_LIMIT_PER_SECOND: '0' },
    services: async () => ({ db: app.db, kv }),
    tools,
    jobHandlers,
    defaultOwnerGate: 'ack',
  });
  const token = await mintToken(direct.db, 'ceo', 'faults');
  return {
    direct,
    app,
    pgProxy,
    kvProxy,
    bridge,
    async call(tool, args) {
      const started = Date.now();
      const res = await chambers.app.fetch(
        new Request(`http://chambers.invalid/v1/tools/${tool}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(args),
        }),
      );
      return { status: res.status, body: (await res.json()) as Envelope, ms: Date.now() - started };
    },
    async close() {
      await app.close().catch(() => {});
      await pgProxy.close();
      await kvProxy.close();
      await bridge.close();
      await direct.close();
    },
  };
}

/** Rows of every table of the database (audit_log apart), and the audit rows by outcome. */
async function census(db: TestDb): Promise<{ tables: Record<string, number>; audit: string[] }> {
  const names = rowsOf<{ name: string }>(
    await db.db.execute(
      "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
    ),
  ).map((r) => r.name);
  const tables: Record<string, number> = {};
  for (const name of names) {
    if (name === 'audit_log' || name === 'kv_entries') continue;
    const [row] = rowsOf<{ n: number }>(await db.db.execute(`select count(*)::int as n from "${name}"`));
    tables[name] = row?.n ?? -1;
  }
  const audit = rowsOf<{ a: string }>(
    await db.db.execute(
      "select tool || ':' || outcome || ':' || coalesce(error_code, '') as a from audit_log order by id",
    ),
  ).map((r) => r.a);
  return { tables, audit };
}

/** The app's sessions on the database that are inside a transaction or running: none once a call is over. */
async function openSessions(db: TestDb): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.db.execute(
      `select count(*)::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`,
    ),
  );
  return row?.n ?? -1;
}

async function eventually(check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 100));
  }
}

function expectUnavailable(r: { status: number; body: Envelope }) {
  expect(r.status, JSON.stringify(r.body)).toBe(503);
  expect(r.body.ok).toBe(false);
  if (r.body.ok) return;
  expect(r.body.error.code).toBe('dependency_unavailable');
  expect(errorCatalogue.dependency_unavailable.retryable).toBe(true);
  expect(r.body.error.hint).toMatch(/retry/i);
  // Nothing about the store leaks (address, driver message).
  expect(JSON.stringify(r.body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|timeout|fetch failed|terminat/i);
}

const text = (what: string) =>
  `כתב ערר — ${what}\n\nהעוררת טוענת כי ההיטל חושב שלא כדין. ${crypto.randomUUID()}`;

describeWithService('postgres', 'dependencies failed on purpose', () => {
  describeWithService('redis', '[postgres + upstash kv, through fault proxies]', () => {
    let s: Stack;
    let caseId: string;
    beforeAll(async () => {
      s = await startStack();
      caseId = expectOk<{ case: { id: string } }>(
        (await s.call('case_create', { case_number: 'ערר 1/26', title: 'תקלות' })).body,
      ).case.id;
    });
    afterAll(async () => s?.close());

    /** Nothing written but the refusal's audit row, no session left in a transaction. */
    async function expectNothingWritten(before: Awaited<ReturnType<typeof census>>, tool: string) {
      await eventually(async () => (await openSessions(s.direct)) === 0);
      const after = await census(s.direct);
      expect(after.tables).toEqual(before.tables);
      // The refusal may be in the audit log (when the database could take it), never anything else.
      for (const a of after.audit.slice(before.audit.length)) {
        expect(a).toBe(`${tool}:error:dependency_unavailable`);
      }
    }

    /** Recovered by itself, and no idempotency lock left: the same call runs now (not in_progress), once. */
    async function expectRecovered(tool: string, args: Record<string, unknown>) {
      const before = await census(s.direct);
      const done = await s.call(tool, args);
      expectOk(done.body);
      const after = await census(s.direct);
      return { before: before.tables, after: after.tables };
    }

    /** `tool(args)` while `fault` holds: refused within `bound` ms, nothing written; then `heal`, and it runs. */
    async function refusedThenDone(
      tool: string,
      args: Record<string, unknown>,
      fault: () => Promise<void>,
      heal: () => Promise<void>,
      bound: number,
    ) {
      const before = await census(s.direct);
      await fault();
      const refused = await s.call(tool, args);
      expectUnavailable(refused);
      expect(refused.ms).toBeLessThan(bound);
      await heal();
      await expectNothingWritten(before, tool);
      return expectRecovered(tool, args);
    }

    const upload = (what: string) => ({ corpus: 'case', case_id: caseId, text: text(what) });
    const oneMoreDocument = (r: { before: Record<string, number>; after: Record<string, number> }) => {
      expect(r.after.documents).toBe((r.before.documents ?? 0) + 1);
      expect(r.after.document_blobs).toBe((r.before.document_blobs ?? 0) + 1);
      expect(r.after.jobs).toBe((r.before.jobs ?? 0) + 1);
    };

    it('the database refusing connections', async () => {
      const r = await refusedThenDone(
        'document_upload',
        upload('מסד סגור'),
        () => s.pgProxy.set('refuse'),
        () => s.pgProxy.set('up'),
        TIMEOUTS.connectMs + 1_000,
      );
      oneMoreDocument(r);
    });

    it('the database answering slower than its bound (connections held, no byte back)', async () => {
      const r = await refusedThenDone(
        'document_upload',
        upload('מסד איטי'),
        () => s.pgProxy.set('stall'),
        () => s.pgProxy.set('up'),
        // A statement and then the audit write, each bounded.
        2 * TIMEOUTS.queryMs + 1_500,
      );
      oneMoreDocument(r);
    });

    it('a connection killed in the middle of a mutating transaction', async () => {
      const args = upload('חיבור שנקטע');
      const before = await census(s.direct);
      // The upload's transaction inserts the document and its bytes, then queues the extraction job: a lock
      // held on the jobs table stops it there, with two of its three rows written; then its session is killed.
      const holder = new pg.Client({ connectionString: s.direct.url });
      await holder.connect();
      await holder.query('begin');
      await holder.query('lock table jobs in access exclusive mode');
      const pending = s.call('document_upload', args);
      // The upload waits for the lock, holding its own row locks on documents: it has written there.
      await eventually(async () => {
        const { rows } = await holder.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity a join pg_locks l on l.pid = a.pid
             join pg_class c on c.oid = l.relation
            where a.datname = current_database() and a.wait_event_type = 'Lock'
              and c.relname = 'documents' and l.mode = 'RowExclusiveLock' and l.granted`,
        );
        return (rows[0]?.n ?? 0) > 0;
      }, 15_000);
      const killed = await holder.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database()
          and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
      );
      expect(killed.rowCount).toBe(1);
      await holder.query('rollback');
      await holder.end();
      expectUnavailable(await pending);
      await expectNothingWritten(before, 'document_upload');
      oneMoreDocument(await expectRecovered('document_upload', args));
    });

    it('the key-value store down', async () => {
      const r = await refusedThenDone(
        'document_upload',
        upload('מאגר מפתחות כבוי'),
        () => s.kvProxy.set('refuse'),
        () => s.kvProxy.set('up'),
        KV_TIMEOUT + 1_000,
      );
      oneMoreDocument(r);
    });

    it('the key-value store answering slower than its bound', async () => {
      const r = await refusedThenDone(
        'case_update',
        { case_id: caseId, title: 'תקלות — אחרי האטה' },
        () => s.kvProxy.set('stall'),
        () => s.kvProxy.set('up'),
        KV_TIMEOUT + 1_000,
      );
      expect(r.after).toEqual(r.before);
    });

    it('reads go on while the key-value store is down', async () => {
      await s.kvProxy.set('refuse');
      try {
        expectOk((await s.call('case_get', { case_id: caseId })).body);
      } finally {
        await s.kvProxy.set('up');
      }
    });

    it('at start, an unreachable key-value store is one line naming its host, not its token', async () => {
      await s.kvProxy.set('refuse');
      try {
        const kv = createUpstashKv({ url: s.kvProxy.via(s.bridge.url), token: s.bridge.token });
        const line = await kv.ping().then(
          () => 'up',
          (e: unknown) => explainKvError(e, s.kvProxy.via(s.bridge.url)),
        );
        expect(line).toBe(
          `The key-value store at 127.0.0.1:${s.kvProxy.port} (UPSTASH_REDIS_REST_URL) is unreachable: nothing accepts connections there. ` +
            'The server starts anyway; calls that write answer dependency_unavailable until it answers, then recover without a restart.',
        );
        expect(line).not.toContain(s.bridge.token);
      } finally {
        await s.kvProxy.set('up');
      }
    });
  });
});
