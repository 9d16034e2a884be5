/**
 * One contract, every adapter: the same suite runs against the Postgres adapter (on PGlite and on the
 * local PostgreSQL) and the Upstash adapter (real @upstash/redis client → local REST bridge → local Redis).
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstashBridge, type UpstashBridge } from '../../scripts/dev/upstash_bridge.ts';
import { createPostgresKv, purgeExpiredKv } from '../../src/kv/postgres.ts';
import type { KvStore } from '../../src/kv/types.ts';
import { createUpstashKv } from '../../src/kv/upstash.ts';
import { createTestDb, type TestDb } from '../harness/databases.ts';
import { describeWithService, redisTestPrefix } from '../harness/services.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SHORT_TTL = 200;
const WAIT_PAST_TTL = 400;
const LONG_TTL = 60_000;

/** The KvStore contract. `getKv` is called inside tests, after the suite's beforeAll has built the store. */
function kvContract(getKv: () => KvStore): void {
  // Every test uses its own keys, so the suite can share one store (and one Redis) with anything else.
  let n = 0;
  const key = (label: string) => `kvtest:${randomBytes(4).toString('hex')}:${label}:${n++}`;

  it('get returns null for an absent key, set then get returns the value', async () => {
    const kv = getKv();
    const k = key('get');
    expect(await kv.get(k)).toBeNull();
    await kv.set(k, 'v1', LONG_TTL);
    expect(await kv.get(k)).toBe('v1');
    await kv.set(k, 'v2', LONG_TTL);
    expect(await kv.get(k)).toBe('v2');
  });

  it('keeps values byte for byte (unicode, JSON-looking, empty)', async () => {
    const kv = getKv();
    for (const value of ['שלום עולם ✓', '{"state":"done","n":1}', 'null', '', 'OK', ' spaced \n']) {
      const k = key('bytes');
      await kv.set(k, value, LONG_TTL);
      expect(await kv.get(k)).toBe(value);
      const c = await kv.claim(k, 'other', LONG_TTL);
      expect(c).toEqual({ claimed: false, current: value });
    }
  });

  it('an entry past its TTL is absent', async () => {
    const kv = getKv();
    const k = key('ttl');
    await kv.set(k, 'short', SHORT_TTL);
    expect(await kv.get(k)).toBe('short');
    await sleep(WAIT_PAST_TTL);
    expect(await kv.get(k)).toBeNull();
  });

  it('set refreshes the TTL', async () => {
    const kv = getKv();
    const k = key('refresh');
    await kv.set(k, 'a', SHORT_TTL);
    await kv.set(k, 'b', LONG_TTL);
    await sleep(WAIT_PAST_TTL);
    expect(await kv.get(k)).toBe('b');
  });

  it('rejects a TTL that is not a positive number', async () => {
    const kv = getKv();
    await expect(kv.set(key('bad-ttl'), 'v', 0)).rejects.toThrow(RangeError);
    await expect(kv.claim(key('bad-ttl'), 'v', -5)).rejects.toThrow(RangeError);
    await expect(kv.compareAndSet(key('bad-ttl'), 'a', 'b', Number.NaN)).rejects.toThrow(RangeError);
  });

  it('claim on an absent key writes it', async () => {
    const kv = getKv();
    const k = key('claim-absent');
    expect(await kv.claim(k, 'mine', LONG_TTL)).toEqual({ claimed: true });
    expect(await kv.get(k)).toBe('mine');
  });

  it('claim on a live key leaves it and reports the current value', async () => {
    const kv = getKv();
    const k = key('claim-present');
    await kv.set(k, 'theirs', LONG_TTL);
    expect(await kv.claim(k, 'mine', LONG_TTL)).toEqual({ claimed: false, current: 'theirs' });
    expect(await kv.get(k)).toBe('theirs');
  });

  it('claim on an expired key writes it, with the new TTL', async () => {
    const kv = getKv();
    const k = key('claim-expired');
    await kv.set(k, 'old', SHORT_TTL);
    await sleep(WAIT_PAST_TTL);
    expect(await kv.claim(k, 'new', SHORT_TTL * 2)).toEqual({ claimed: true });
    expect(await kv.get(k)).toBe('new');
    await sleep(SHORT_TTL * 2 + WAIT_PAST_TTL);
    expect(await kv.get(k)).toBeNull();
  });

  it('50 concurrent claims of one key: exactly one wins, the others see a holder', async () => {
    const kv = getKv();
    const k = key('race');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => kv.claim(k, `contender-${i}`, LONG_TTL)),
    );
    const winners = results.flatMap((r, i) => (r.claimed ? [i] : []));
    expect(winners).toHaveLength(1);
    const winnerValue = `contender-${winners[0]}`;
    expect(await kv.get(k)).toBe(winnerValue);
    for (const r of results) {
      // A loser may see null only if it raced the winner's commit (KvClaim allows it); never another value.
      if (!r.claimed && r.current !== null) expect(r.current).toBe(winnerValue);
    }
  });

  it('50 concurrent claims of an expired key: exactly one wins', async () => {
    const kv = getKv();
    const k = key('race-expired');
    await kv.set(k, 'stale', SHORT_TTL);
    await sleep(WAIT_PAST_TTL);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => kv.claim(k, `contender-${i}`, LONG_TTL)),
    );
    expect(results.filter((r) => r.claimed)).toHaveLength(1);
  });

  it('compareAndSet replaces only on the expected value', async () => {
    const kv = getKv();
    const k = key('cas');
    await kv.set(k, 'v1', LONG_TTL);
    expect(await kv.compareAndSet(k, 'wrong', 'v2', LONG_TTL)).toBe(false);
    expect(await kv.get(k)).toBe('v1');
    expect(await kv.compareAndSet(k, 'v1', 'v2', LONG_TTL)).toBe(true);
    expect(await kv.get(k)).toBe('v2');
    expect(await kv.compareAndSet(k, 'v1', 'v3', LONG_TTL)).toBe(false);
  });

  it('compareAndSet sets the new TTL', async () => {
    const kv = getKv();
    const k = key('cas-ttl');
    await kv.set(k, 'v1', LONG_TTL);
    expect(await kv.compareAndSet(k, 'v1', 'v2', SHORT_TTL)).toBe(true);
    await sleep(WAIT_PAST_TTL);
    expect(await kv.get(k)).toBeNull();
  });

  it('compareAndSet on an absent or expired key fails and writes nothing', async () => {
    const kv = getKv();
    const absent = key('cas-absent');
    expect(await kv.compareAndSet(absent, 'x', 'y', LONG_TTL)).toBe(false);
    expect(await kv.get(absent)).toBeNull();
    const expired = key('cas-expired');
    await kv.set(expired, 'x', SHORT_TTL);
    await sleep(WAIT_PAST_TTL);
    expect(await kv.compareAndSet(expired, 'x', 'y', LONG_TTL)).toBe(false);
    expect(await kv.get(expired)).toBeNull();
    // The expired entry must not block a later claim either.
    expect(await kv.claim(expired, 'z', LONG_TTL)).toEqual({ claimed: true });
  });

  it('concurrent compareAndSet from one expected value: exactly one succeeds', async () => {
    const kv = getKv();
    const k = key('cas-race');
    await kv.set(k, 'start', LONG_TTL);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => kv.compareAndSet(k, 'start', `next-${i}`, LONG_TTL)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('compareAndDelete deletes only on the expected value', async () => {
    const kv = getKv();
    const k = key('cad');
    await kv.set(k, 'v1', LONG_TTL);
    expect(await kv.compareAndDelete(k, 'wrong')).toBe(false);
    expect(await kv.get(k)).toBe('v1');
    expect(await kv.compareAndDelete(k, 'v1')).toBe(true);
    expect(await kv.get(k)).toBeNull();
    expect(await kv.compareAndDelete(k, 'v1')).toBe(false);
  });

  it('compareAndDelete on an expired key reports false', async () => {
    const kv = getKv();
    const k = key('cad-expired');
    await kv.set(k, 'v1', SHORT_TTL);
    await sleep(WAIT_PAST_TTL);
    expect(await kv.compareAndDelete(k, 'v1')).toBe(false);
  });

  it('delete removes a key and is a no-op on an absent one', async () => {
    const kv = getKv();
    const k = key('del');
    await kv.set(k, 'v', LONG_TTL);
    await kv.delete(k);
    expect(await kv.get(k)).toBeNull();
    await kv.delete(k);
    expect(await kv.claim(k, 'again', LONG_TTL)).toEqual({ claimed: true });
  });

  it('ping succeeds when the store is reachable', async () => {
    await expect(getKv().ping()).resolves.toBeUndefined();
  });
}

/** Postgres adapter over a database from the harness, plus what only that adapter has (purge). */
function postgresKvSuite(kind: 'pglite' | 'postgres') {
  return () => {
    let db: TestDb | undefined;
    let kv: KvStore | undefined;
    beforeAll(async () => {
      db = await createTestDb(kind);
      kv = createPostgresKv(db.db);
    });
    afterAll(async () => {
      await db?.close();
    });
    const getKv = () => {
      if (!kv) throw new Error('store not ready');
      return kv;
    };
    it('reports its kind', () => expect(getKv().kind).toBe('postgres'));
    kvContract(getKv);

    it('purgeExpiredKv deletes expired rows only', async () => {
      if (!db) throw new Error('db not ready');
      const store = getKv();
      const tag = randomBytes(4).toString('hex');
      await store.set(`purge:${tag}:a`, 'a', SHORT_TTL);
      await store.set(`purge:${tag}:b`, 'b', SHORT_TTL);
      await store.set(`purge:${tag}:c`, 'c', LONG_TTL);
      await sleep(WAIT_PAST_TTL);
      expect(await purgeExpiredKv(db.db)).toBeGreaterThanOrEqual(2);
      expect(await store.get(`purge:${tag}:c`)).toBe('c');
      expect(await purgeExpiredKv(db.db)).toBe(0);
    });
  };
}

describe('KvStore contract: postgres adapter on PGlite', postgresKvSuite('pglite'));
describeWithService(
  'postgres',
  'KvStore contract: postgres adapter on PostgreSQL',
  postgresKvSuite('postgres'),
);

describeWithService('redis', 'KvStore contract: upstash adapter via the REST bridge on Redis', () => {
  let bridge: UpstashBridge | undefined;
  let kv: KvStore | undefined;
  beforeAll(async () => {
    bridge = await startUpstashBridge({ keyPrefix: redisTestPrefix('kv-contract') });
    kv = createUpstashKv({ url: bridge.url, token: bridge.token });
  });
  afterAll(async () => {
    await bridge?.clear();
    await bridge?.close();
  });
  const getKv = () => {
    if (!kv) throw new Error('store not ready');
    return kv;
  };
  it('reports its kind', () => expect(getKv().kind).toBe('upstash'));
  kvContract(getKv);
});

describe('KvStore ping when the store is unreachable', () => {
  it('the upstash adapter throws', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const address = s.address();
        s.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    const kv = createUpstashKv({ url: `http://127.0.0.1:${port}`, token: 'unused' });
    await expect(kv.ping()).rejects.toThrow();
  });

  it('the postgres adapter throws once its database is closed', async () => {
    const db = await createTestDb('pglite');
    const kv = createPostgresKv(db.db);
    await kv.ping();
    await db.close();
    await expect(kv.ping()).rejects.toThrow();
  });
});
