/**
 * KV_PREFIX: each environment's keys start with its prefix, so environments sharing one Redis (a preview and
 * production) never see each other's idempotency replays or lease copies; deleteByPrefix removes one
 * environment's keys and nothing else.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstashBridge, type UpstashBridge } from '../../scripts/dev/upstash_bridge.ts';
import { leaseKvKey } from '../../src/governance/leases.ts';
import { createPostgresKv } from '../../src/kv/postgres.ts';
import { KV_PREFIX_PATTERN, prefixedKv } from '../../src/kv/prefix.ts';
import type { KvStore } from '../../src/kv/types.ts';
import { createUpstashKv } from '../../src/kv/upstash.ts';
import {
  authorize,
  bindProject,
  DEVICE,
  type LeaseData,
  missionArgs,
  movableClock,
} from '../functions/hai/_hai.ts';
import { createTestDb, type TestDb } from '../harness/databases.ts';
import { expectOk, startTestServer, type TestServer } from '../harness/server.ts';
import { describeWithService, serviceUrls } from '../harness/services.ts';

const run = crypto.randomUUID().slice(0, 8);

function prefixSuite(getKv: () => KvStore) {
  it('writes every key under prefix:, and deleteByPrefix removes that environment only', async () => {
    const raw = getKv();
    const a = prefixedKv(raw, `a-${run}`);
    const ab = prefixedKv(raw, `a-${run}-b`);
    await a.set('idem:v1:x', 'from a', 60_000);
    await ab.set('idem:v1:x', 'from ab', 60_000);
    expect(await raw.get(`a-${run}:idem:v1:x`)).toBe('from a');
    expect(await a.get('idem:v1:x')).toBe('from a');
    expect(await ab.get('idem:v1:x')).toBe('from ab');
    expect(await a.claim('lock', 'l1', 60_000)).toEqual({ claimed: true });
    expect(await ab.claim('lock', 'l2', 60_000)).toEqual({ claimed: true });
    expect(await a.compareAndSet('lock', 'l1', 'l1b', 60_000)).toBe(true);
    expect(await ab.get('lock')).toBe('l2');
    // "a-<run>:" is not a start of "a-<run>-b:": removing one environment leaves the other whole.
    expect(await raw.deleteByPrefix(`a-${run}:`)).toBe(2);
    expect(await a.get('idem:v1:x')).toBeNull();
    expect(await ab.get('idem:v1:x')).toBe('from ab');
    expect(await ab.deleteByPrefix('')).toBe(2);
    expect(await ab.get('lock')).toBeNull();
  });

  it('the empty prefix is the store itself; a prefix with a colon or capitals is refused', () => {
    const raw = getKv();
    expect(prefixedKv(raw, '')).toBe(raw);
    for (const bad of ['a:b', 'Prod', '-a', 'a-', 'a_b', 'x'.repeat(64)]) {
      expect(KV_PREFIX_PATTERN.test(bad)).toBe(false);
      expect(() => prefixedKv(raw, bad)).toThrow(RangeError);
    }
    for (const good of ['prod', 'feature-12', 'a', 'x'.repeat(63)])
      expect(KV_PREFIX_PATTERN.test(good)).toBe(true);
  });
}

describe('prefixedKv on the Postgres key-value table (PGlite)', () => {
  let db: TestDb | undefined;
  beforeAll(async () => {
    db = await createTestDb('pglite');
  });
  afterAll(async () => db?.close());
  prefixSuite(() => createPostgresKv((db as TestDb).db));
});

describeWithService('redis', 'two environments sharing one Redis (Upstash REST)', () => {
  let bridge: UpstashBridge | undefined;
  const servers: TestServer[] = [];
  const upstash = () => {
    if (bridge === undefined) throw new Error('no bridge');
    return { url: bridge.url, token: bridge.token };
  };
  beforeAll(async () => {
    // No bridge prefix: KV_PREFIX alone keeps the environments apart, as on a real shared Upstash database.
    bridge = await startUpstashBridge({});
  });
  afterAll(async () => {
    await Promise.allSettled(servers.map((s) => s.close()));
    const kv = createUpstashKv(upstash());
    for (const p of [`a-${run}`, `a-${run}-b`, `prod-${run}`, `preview-${run}`, `same-${run}`])
      await kv.deleteByPrefix(`${p}:`).catch(() => 0);
    await bridge?.close();
  });

  prefixSuite(() => createUpstashKv(upstash()));

  const twoServers = async (prefixA: string, prefixB: string) => {
    const clock = movableClock();
    const a = await startTestServer({
      kv: 'upstash',
      upstash: upstash(),
      env: { KV_PREFIX: prefixA },
      now: clock.now,
    });
    servers.push(a);
    const b = await startTestServer({
      kv: 'upstash',
      upstash: upstash(),
      env: { KV_PREFIX: prefixB },
      now: clock.now,
    });
    servers.push(b);
    return { a, b, clock };
  };

  it('a preview never replays production’s stored result; one prefix for both would (the bug this prevents)', async () => {
    const args = { case_number: `ערר ${run}/26`, title: 'שני סביבות' };
    const { a, b } = await twoServers(`prod-${run}`, `preview-${run}`);
    const first = await a.call('ceo', 'case_create', args);
    expect(expectOk<{ created: boolean }>(first).created).toBe(true);
    const other = await b.call('ceo', 'case_create', args);
    expect(other.ok && other.replayed).toBeFalsy();
    expect(expectOk<{ created: boolean }>(other).created).toBe(true);
    // The control: two databases under one prefix replay the other's result (an id that is not in this database).
    const same = await twoServers(`same-${run}`, `same-${run}`);
    const x = expectOk<{ case: { id: string } }>(await same.a.call('ceo', 'case_create', args));
    const y = await same.b.call('ceo', 'case_create', args);
    expect(y.ok && y.replayed).toBe(true);
    expect(expectOk<{ case: { id: string } }>(y).case.id).toBe(x.case.id);
  });

  it('a lease copy lives under its environment’s prefix only', async () => {
    const { a, clock } = await twoServers(`prod-${run}`, `preview-${run}`);
    const projectId = await bindProject(a, DEVICE);
    const mission = expectOk<{ mission: { id: string } }>(
      await a.call('ceo', 'hai_open_mission', missionArgs(clock, projectId)),
    );
    const granted = expectOk<LeaseData>(
      await authorize({ s: a, clock, stack: { db: 'pglite', kv: 'upstash' } }, 'analyst', mission.mission.id),
    );
    const raw = createUpstashKv(upstash());
    const key = leaseKvKey(granted.lease.lease_id);
    expect(await raw.get(`prod-${run}:${key}`)).not.toBeNull();
    expect(await raw.get(`preview-${run}:${key}`)).toBeNull();
    expect(await raw.get(key)).toBeNull();
    // Nothing this environment wrote escaped its prefix.
    const redis = new Redis(serviceUrls.redis);
    try {
      const keys = await redis.keys(`*${granted.lease.lease_id}*`);
      expect(keys).toEqual([`prod-${run}:${key}`]);
    } finally {
      redis.disconnect();
    }
  });
});
