// What the guard computes per bearer token (the agent it belongs to, and until when that answer holds), kept
// per process or isolate so a cached token costs no database round trip. It holds no request data: entries are
// keyed by the token's SHA-256 (as the table stores it; the secret is never kept) and hold the agent name only.
import { revocationGeneration } from './tokens.ts';

/**
 * How long a cached answer is trusted at most. Revocations made in this process (revokeTokens: the
 * `npm run token -- revoke` route of the embedded server, the tests) empty the cache at once; the lifetime
 * bounds only a change made behind its back (a hand-written UPDATE). An expiring token is cached no longer
 * than its expiry.
 */
export const AUTH_CACHE_MS = 10_000;

/** At most this many tokens are cached; the least recently used goes first. */
export const AUTH_CACHE_ENTRIES = 1_024;

interface Entry {
  agent: string;
  /** Epoch milliseconds after which the entry is looked up again. */
  until: number;
  /** revocationGeneration() when the lookup began: any revocation since makes the entry stale. */
  generation: number;
}

export interface TokenCacheOptions {
  maxEntries?: number;
  ttlMs?: number;
}

/** A bounded LRU of token hash → agent, stale after any revocation in this process or its lifetime. */
export class TokenCache {
  readonly #entries = new Map<string, Entry>();
  readonly maxEntries: number;
  readonly ttlMs: number;

  constructor(options: TokenCacheOptions = {}) {
    this.maxEntries = Math.max(1, options.maxEntries ?? AUTH_CACHE_ENTRIES);
    this.ttlMs = options.ttlMs ?? AUTH_CACHE_MS;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The agent of a cached, still valid token hash, or null (then the caller looks it up). */
  get(hash: string, nowMs: number): string | null {
    const entry = this.#entries.get(hash);
    if (entry === undefined) return null;
    this.#entries.delete(hash);
    if (entry.until <= nowMs || entry.generation !== revocationGeneration()) return null;
    // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
    this.#entries.set(hash, entry);
    return entry.agent;
  }

  /**
   * Caches a lookup's answer. `generation` is revocationGeneration() read BEFORE the lookup: a revocation that
   * commits while the lookup runs leaves the entry stale rather than trusting a row read before it.
   */
  set(hash: string, found: { agent: string; expiresAt: Date | null }, nowMs: number, generation: number) {
    const until = Math.min(nowMs + this.ttlMs, found.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY);
    this.#entries.delete(hash);
    while (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
    this.#entries.set(hash, { agent: found.agent, until, generation });
  }

  delete(hash: string): void {
    this.#entries.delete(hash);
  }

  /** Whether `hash` has an entry (tests: what was evicted), without refreshing it. */
  has(hash: string): boolean {
    return this.#entries.has(hash);
  }
}
