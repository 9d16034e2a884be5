/**
 * Which real services this machine offers to the test suites, probed once per test process.
 *
 * - PostgreSQL: `TEST_DATABASE_URL`, default `postgres://postgres@127.0.0.1:5432/test` (trust auth).
 * - Redis: `TEST_REDIS_URL`, default `redis://127.0.0.1:6379`.
 *
 * `describeWithService('postgres', title, fn)` registers a suite that needs a service. When the service is
 * down it is skipped with a plain warning, except in CI (`CI=true`), where the service suites are required
 * and a missing service fails the run.
 */
import { Redis } from 'ioredis';
import pg from 'pg';
import { describe, inject } from 'vitest';

export type ServiceName = 'postgres' | 'redis';

export const serviceUrls: Record<ServiceName, string> = {
  postgres: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  redis: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
};

const PROBE_TIMEOUT_MS = 1500;

async function probePostgres(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  // A connection that fails later (e.g. reset) emits 'error'; without a listener it would crash the run.
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function probeRedis(url: string): Promise<boolean> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: PROBE_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

const [postgresUp, redisUp] = await Promise.all([
  probePostgres(serviceUrls.postgres),
  probeRedis(serviceUrls.redis),
]);

/** Whether each service answered (a real query / PING, not just an open port). */
export const services: Readonly<Record<ServiceName, boolean>> = { postgres: postgresUp, redis: redisUp };

/** The URL without its password, for messages. */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable url)';
  }
}

/**
 * `describe(title, fn)` when the service is up. When it is down: throws in CI (the service suites are
 * required there); elsewhere registers the suite as skipped and prints a warning saying it did not run.
 */
export function describeWithService(name: ServiceName, title: string, fn: () => void): void {
  if (services[name]) {
    describe(title, fn);
    return;
  }
  const message = `[services] ${name} is not reachable at ${redactUrl(serviceUrls[name])}: the "${title}" suite did NOT run`;
  if (process.env.CI === 'true') throw new Error(`${message} (services are required in CI)`);
  console.warn(message);
  describe.skip(title, fn);
}

/**
 * A Redis key prefix of this test run (see test/global_redis.ts, which removes what is left under it when the
 * run ends), unique per call: parallel test files share one Redis.
 */
export function redisTestPrefix(tag: string): string {
  const run = inject('redisRunPrefix') ?? 'chambers-test:';
  return `${run}${tag}:${crypto.randomUUID().slice(0, 8)}:`;
}
