/**
 * The key-value store behind idempotency records and session leases. Every runtime wraps it in `prefixedKv`
 * (KV_PREFIX), so the keys below are each environment's own.
 * Two adapters implement it: Upstash Redis (production) and a Postgres table (the embedded default).
 * Every method is one round trip. TTLs are in milliseconds; a key past its TTL is absent.
 */
export interface KvStore {
  /** The adapter's name, for logs and health output. */
  readonly kind: 'upstash' | 'postgres';
  get(key: string): Promise<string | null>;
  /** Unconditional write with a TTL. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /**
   * Atomically writes `value` only if the key is absent (or expired).
   * Returns `{ claimed: true }` when written, else `{ claimed: false, current }` with the value held now
   * (`current` may be null if the holder vanished between the check and the read).
   */
  claim(key: string, value: string, ttlMs: number): Promise<KvClaim>;
  /** Atomically replaces the value only if it currently equals `expected`; true when replaced. */
  compareAndSet(key: string, expected: string, value: string, ttlMs: number): Promise<boolean>;
  /** Atomically deletes the key only if it currently equals `expected`; true when deleted. */
  compareAndDelete(key: string, expected: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /**
   * Deletes every key that starts with `keyStart` (a non-empty string) and returns how many: what
   * `npm run preview -- down` uses to remove a preview's keys. Not atomic: keys written meanwhile may stay.
   */
  deleteByPrefix(keyStart: string): Promise<number>;
  /** Throws when the store cannot be reached. */
  ping(): Promise<void>;
}

export type KvClaim = { claimed: true } | { claimed: false; current: string | null };
