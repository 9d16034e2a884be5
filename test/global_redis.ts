/**
 * One key prefix per `npm test` run for every Redis key the suites write (through `redisTestPrefix`), and,
 * when the run ends, the removal of whatever is left under it: the idempotency records live 24 h, and a
 * shared Redis (another checkout's tests, a dev server) must not fill up with ours. Only this run's prefix
 * is touched.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    redisRunPrefix: string;
  }
}

export default function setup(project: TestProject): () => Promise<void> {
  const prefix = `chambers-test:${randomBytes(5).toString('hex')}:`;
  project.provide('redisRunPrefix', prefix);
  return async () => {
    const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', {
      lazyConnect: true,
      connectTimeout: 1500,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on('error', () => {});
    try {
      await redis.connect();
    } catch {
      return; // No Redis: the suites that need it were skipped (or failed), and nothing was written.
    }
    try {
      let cursor = '0';
      let removed = 0;
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
        cursor = next;
        if (keys.length > 0) removed += await redis.unlink(...keys);
      } while (cursor !== '0');
      if (removed > 0) console.log(`Redis: removed ${removed} key(s) this run left under ${prefix}`);
    } finally {
      redis.disconnect();
    }
  };
}
