/**
 * Every database client we ship, against a real engine: opens, migrates an empty database, commits and
 * rolls back transactions, and reports each statement to `onQuery`.
 * PGlite in process; node-postgres and the Neon driver (through the local WebSocket proxy, as under
 * `wrangler dev`) on the local PostgreSQL.
 */
import { readFile } from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { loopbackTarget, type NeonWsProxy, startNeonWsProxy } from '../../scripts/dev/neon_ws_proxy.ts';
import { migrateDb } from '../../src/db/migrate.ts';
import { openNeon } from '../../src/db/neon.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { kvEntries } from '../../src/db/schema/kv_entries.ts';
import type { DbHandle } from '../../src/db/types.ts';
import { createTestDb, forEachDb, type TestDb } from '../harness/databases.ts';
import { describeWithService, serviceUrls } from '../harness/services.ts';

const later = () => new Date(Date.now() + 60_000);

/** The shared checks; `open` returns a client on an EMPTY database and the list its onQuery fills. */
function clientSuite(kind: DbHandle['kind'], open: () => Promise<{ handle: DbHandle; queries: string[] }>) {
  let handle: DbHandle | undefined;
  let queries: string[] = [];
  const h = () => {
    if (!handle) throw new Error('client not open');
    return handle;
  };
  beforeAll(async () => {
    ({ handle, queries } = await open());
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('reports its kind', () => expect(h().kind).toBe(kind));

  it('migrates an empty database, and a second run is a no-op', async () => {
    await migrateDb(h());
    const tables = await h().db.execute(sql`select tablename from pg_tables where schemaname = 'public'`);
    expect((tables as unknown as { rows: { tablename: string }[] }).rows.map((r) => r.tablename)).toEqual(
      expect.arrayContaining(['cases', 'agent_tokens', 'audit_log', 'kv_entries', 'jobs']),
    );
    const ext = await h().db.execute(sql`select extname from pg_extension where extname = 'pg_trgm'`);
    expect((ext as unknown as { rows: unknown[] }).rows).toHaveLength(1);
    await migrateDb(h());
    const applied = await h().db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    const journal = JSON.parse(
      await readFile(new URL('../../drizzle/meta/_journal.json', import.meta.url), 'utf8'),
    ) as {
      entries: unknown[];
    };
    expect((applied as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(journal.entries.length);
  });

  it('commits a transaction', async () => {
    await h().db.transaction(async (tx) => {
      await tx.insert(kvEntries).values({ key: 'tx-commit', value: 'a', expiresAt: later() });
      await tx.update(kvEntries).set({ value: 'b' }).where(eq(kvEntries.key, 'tx-commit'));
    });
    const rows = await h().db.select().from(kvEntries).where(eq(kvEntries.key, 'tx-commit'));
    expect(rows.map((r) => r.value)).toEqual(['b']);
  });

  it('rolls back a transaction that throws, and one that calls rollback()', async () => {
    await expect(
      h().db.transaction(async (tx) => {
        await tx.insert(kvEntries).values({ key: 'tx-throw', value: 'x', expiresAt: later() });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(
      h().db.transaction(async (tx) => {
        await tx.insert(kvEntries).values({ key: 'tx-rollback', value: 'x', expiresAt: later() });
        tx.rollback();
      }),
    ).rejects.toThrow(/rollback/i);
    const rows = await h()
      .db.select()
      .from(kvEntries)
      .where(sql`${kvEntries.key} in ('tx-throw', 'tx-rollback')`);
    expect(rows).toEqual([]);
  });

  it('a failed statement inside a transaction undoes the earlier ones', async () => {
    await expect(
      h().db.transaction(async (tx) => {
        await tx.insert(kvEntries).values({ key: 'tx-dup', value: '1', expiresAt: later() });
        await tx.insert(kvEntries).values({ key: 'tx-dup', value: '2', expiresAt: later() });
      }),
    ).rejects.toThrow();
    expect(await h().db.select().from(kvEntries).where(eq(kvEntries.key, 'tx-dup'))).toEqual([]);
  });

  it('calls onQuery once per statement sent', async () => {
    queries.length = 0;
    await h().db.select().from(kvEntries).where(eq(kvEntries.key, 'nothing'));
    expect(queries).toHaveLength(1);
    expect(queries[0]).toMatch(/^select .* from "kv_entries"/);
    queries.length = 0;
    await h().db.transaction(async (tx) => {
      await tx.select().from(kvEntries);
      await tx.select().from(kvEntries);
    });
    // begin, two selects, commit: four round trips.
    expect(queries.map((q) => q.split(' ')[0]?.toLowerCase())).toEqual([
      'begin',
      'select',
      'select',
      'commit',
    ]);
  });
}

describe('database client: PGlite', () => {
  clientSuite('pglite', async () => {
    const queries: string[] = [];
    return { handle: await openPglite({ onQuery: (q) => queries.push(q) }), queries };
  });
});

describeWithService('postgres', 'database client: node-postgres', () => {
  let empty: TestDb | undefined;
  afterAll(async () => {
    await empty?.close();
  });
  clientSuite('postgres', async () => {
    empty = await createTestDb('postgres', { migrate: false });
    const queries: string[] = [];
    return { handle: openPostgres(String(empty.url), { onQuery: (q) => queries.push(q), max: 4 }), queries };
  });
});

describeWithService('postgres', 'database client: Neon driver through the WebSocket proxy', () => {
  let empty: TestDb | undefined;
  let proxy: NeonWsProxy | undefined;
  afterAll(async () => {
    // The client (closed by the shared suite's afterAll, which runs first) before the proxy and database.
    await proxy?.close();
    await empty?.close();
  });
  clientSuite('neon', async () => {
    empty = await createTestDb('postgres', { migrate: false });
    proxy = await startNeonWsProxy();
    const queries: string[] = [];
    const handle = openNeon(String(empty.url), {
      wsProxy: proxy.host,
      webSocketConstructor: WebSocket,
      onQuery: (q) => queries.push(q),
    });
    return { handle, queries };
  });

  it('serves concurrent transactions on separate connections (row locks wait, not fail)', async () => {
    if (!proxy || !empty) throw new Error('not ready');
    const handle = openNeon(String(empty.url), {
      wsProxy: proxy.host,
      webSocketConstructor: WebSocket,
      max: 4,
    });
    try {
      await handle.db.insert(kvEntries).values({ key: 'counter', value: '0', expiresAt: later() });
      await Promise.all(
        Array.from({ length: 4 }, () =>
          handle.db.transaction(async (tx) => {
            const [row] = await tx.select().from(kvEntries).where(eq(kvEntries.key, 'counter')).for('update');
            await tx
              .update(kvEntries)
              .set({ value: String(Number(row?.value) + 1) })
              .where(eq(kvEntries.key, 'counter'));
          }),
        ),
      );
      const [row] = await handle.db.select().from(kvEntries).where(eq(kvEntries.key, 'counter'));
      expect(row?.value).toBe('4');
    } finally {
      await handle.close();
    }
  });

  it("also works with Node 22's built-in WebSocket (no constructor injected)", async () => {
    if (!proxy || !empty) throw new Error('not ready');
    const handle = openNeon(String(empty.url), { wsProxy: proxy.host });
    try {
      const result = await handle.db.execute(sql`select 1 as one`);
      expect((result as unknown as { rows: unknown[] }).rows).toEqual([{ one: 1 }]);
    } finally {
      await handle.close();
    }
  });

  it('the proxy refuses targets that are not loopback', async () => {
    if (!proxy) throw new Error('not ready');
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`ws://${proxy?.host}/v1?address=example.com:5432`);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => reject(new Error('proxy accepted a non-loopback target')));
      ws.on('error', () => {});
    });
    expect(status).toBe(403);
    expect(loopbackTarget('127.0.0.1:5432')).toEqual({ host: '127.0.0.1', port: 5432 });
    expect(loopbackTarget('[::1]:5432')).toEqual({ host: '::1', port: 5432 });
    expect(loopbackTarget('localhost:6543')).toEqual({ host: 'localhost', port: 6543 });
    for (const bad of [
      '10.0.0.1:5432',
      'db.example.com:5432',
      '127.0.0.1',
      '127.0.0.1:0',
      '[::2]:5432',
      null,
    ]) {
      expect(loopbackTarget(bad)).toBeNull();
    }
  });
});

forEachDb('test harness: createTestDb', (getDb, kind) => {
  it('gives a migrated database with pg_trgm', async () => {
    const ext = await getDb().db.execute(sql`select extname from pg_extension where extname = 'pg_trgm'`);
    expect((ext as unknown as { rows: unknown[] }).rows).toHaveLength(1);
    expect(await getDb().db.select().from(kvEntries)).toEqual([]);
  });

  it('isolates databases from each other, and close() disposes of them', async () => {
    await getDb().db.insert(kvEntries).values({ key: 'mine', value: '1', expiresAt: later() });
    const other = await createTestDb(kind);
    try {
      expect(await other.db.select().from(kvEntries)).toEqual([]);
    } finally {
      await other.close();
    }
    if (kind === 'postgres') {
      const name = new URL(String(other.url)).pathname.slice(1);
      const admin = openPostgres(serviceUrls.postgres, { max: 1 });
      try {
        const left = await admin.db.execute(sql`select 1 from pg_database where datname = ${name}`);
        expect((left as unknown as { rows: unknown[] }).rows).toEqual([]);
      } finally {
        await admin.close();
      }
    }
  });
});
