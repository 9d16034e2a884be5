// The Cloudflare build: the default (Node) entry sets `cache: 'no-store'` on fetch, which older Workers
// compatibility dates reject; this one only uses fetch and atob, so it runs on Node 22 as well.
import { Redis } from '@upstash/redis/cloudflare';
import { KV_TIMEOUT_MS } from '../db/timeouts.ts';
import { ttlMillis } from './ttl.ts';
import type { KvClaim, KvStore } from './types.ts';

export interface UpstashKvConfig {
  /** UPSTASH_REDIS_REST_URL */
  url: string;
  /** UPSTASH_REDIS_REST_TOKEN */
  token: string;
  /** One request's bound (default KV_TIMEOUT_MS). */
  timeoutMs?: number;
}

// Each operation is one EVAL: atomic on the server, one round trip, no script cache to miss (EVALSHA
// would cost a second round trip after every cache flush).
const CLAIM = `local cur = redis.call('GET', KEYS[1])
if cur then return {0, cur} end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return {1}`;

const COMPARE_AND_SET = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0`;

const COMPARE_AND_DELETE = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

/** The key-value store on Upstash Redis over its REST API (works on Workers and Node). */
export function createUpstashKv(config: UpstashKvConfig): KvStore {
  const redis = new Redis({
    url: config.url,
    token: config.token,
    // Values are opaque strings: no JSON parsing of what comes back.
    automaticDeserialization: false,
    enableTelemetry: false,
    // The client retries on network errors, and a retried write that had already landed would answer
    // wrongly (a claim would see its own value, a CAS would fail). Callers retry whole operations instead.
    // Note `retry: false` still makes two attempts in 1.39.0; `retries: 0` makes one.
    retry: { retries: 0 },
    // A fresh signal per request (a function: given a fixed signal the client turns an abort into a fake
    // "Aborted" result instead of an error). A store slower than this is dependency_unavailable.
    signal: () => AbortSignal.timeout(config.timeoutMs ?? KV_TIMEOUT_MS),
  });
  return {
    kind: 'upstash',

    async get(key) {
      return redis.get<string>(key);
    },

    async set(key, value, ttlMs) {
      await redis.set(key, value, { px: ttlMillis(ttlMs) });
    },

    async claim(key, value, ttlMs): Promise<KvClaim> {
      const reply = await redis.eval<[string, number], [number, string?]>(
        CLAIM,
        [key],
        [value, ttlMillis(ttlMs)],
      );
      if (reply[0] === 1) return { claimed: true };
      return { claimed: false, current: reply[1] ?? null };
    },

    async compareAndSet(key, expected, value, ttlMs) {
      const reply = await redis.eval<[string, string, number], number>(
        COMPARE_AND_SET,
        [key],
        [expected, value, ttlMillis(ttlMs)],
      );
      return reply === 1;
    },

    async compareAndDelete(key, expected) {
      const reply = await redis.eval<[string], number>(COMPARE_AND_DELETE, [key], [expected]);
      return reply === 1;
    },

    async delete(key) {
      await redis.del(key);
    },

    async deleteByPrefix(keyStart) {
      if (keyStart === '') throw new RangeError('deleteByPrefix needs a non-empty prefix');
      // SCAN's pattern is a glob: the prefix's own glob characters are escaped.
      const match = `${keyStart.replace(/[\\*?[\]]/g, '\\$&')}*`;
      let cursor = '0';
      let deleted = 0;
      do {
        const [next, keys] = await redis.scan(cursor, { match, count: 500 });
        cursor = String(next);
        if (keys.length > 0) deleted += await redis.del(...keys);
      } while (cursor !== '0');
      return deleted;
    },

    async ping() {
      await redis.ping();
    },
  };
}
