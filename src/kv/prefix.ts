// KV_PREFIX: every key a deployment writes (idempotency records and in-flight locks, lease copies) starts with
// its environment's prefix, so a preview sharing production's Redis never reads production's records.
import type { KvStore } from './types.ts';

/** A prefix: empty (npm start), or lower-case letters, digits and dashes (a branch slug, "prod"). */
export const KV_PREFIX_PATTERN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)?$/;

/** What starts every key of `prefix`: nothing for the empty prefix, else the prefix and a colon. */
export const kvKeyStart = (prefix: string): string => (prefix === '' ? '' : `${prefix}:`);

/**
 * The store as one environment sees it: every key is written and read under `prefix:`. A prefix holds no
 * colon, so no environment's keys can start with another's (`a:` never starts `a-b:`).
 */
export function prefixedKv(kv: KvStore, prefix: string): KvStore {
  if (!KV_PREFIX_PATTERN.test(prefix)) throw new RangeError(`not a key-value prefix: "${prefix}"`);
  if (prefix === '') return kv;
  const start = kvKeyStart(prefix);
  const k = (key: string) => `${start}${key}`;
  return {
    kind: kv.kind,
    get: (key) => kv.get(k(key)),
    set: (key, value, ttlMs) => kv.set(k(key), value, ttlMs),
    claim: (key, value, ttlMs) => kv.claim(k(key), value, ttlMs),
    compareAndSet: (key, expected, value, ttlMs) => kv.compareAndSet(k(key), expected, value, ttlMs),
    compareAndDelete: (key, expected) => kv.compareAndDelete(k(key), expected),
    delete: (key) => kv.delete(k(key)),
    deleteByPrefix: (keyStart) => kv.deleteByPrefix(k(keyStart)),
    ping: () => kv.ping(),
  };
}
