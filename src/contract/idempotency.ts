import type { KvStore } from '../kv/types.ts';
import type { Envelope, OkEnvelope } from './envelope.ts';
import { ToolError } from './errors.ts';
import { randomToken, sha256Hex, stableStringify } from './hash.ts';

/** How long a completed result is replayed (Stripe keeps keys at least 24 h). */
export const RESULT_TTL_MS = 24 * 60 * 60 * 1000;
/** A crashed call must not block its key for a day: the in-flight lock lapses quickly. */
export const LOCK_TTL_MS = 30 * 1000;
/** How every in-flight lock's stored value begins (the record's first field is `s`). */
export const IN_FLIGHT_PREFIX = '{"s":"run"';
/** Keys longer than this (built from a text or a file) appear in errors as their SHA-256, as in the audit row. */

type Record_ = { s: 'run'; t: string; f: string } | { s: 'done'; f: string; e: OkEnvelope };

export interface IdempotencySlot {
  /** The stored envelope of an earlier identical call, to replay instead of running. */
  replay?: OkEnvelope;
  /** Stores a success for replay and releases the lock; releases only on an error (a retry may succeed). */
  settle(envelope: Envelope): Promise<void>;
}

const kvFailure = (e: unknown) =>
  new ToolError('dependency_unavailable', 'The idempotency store is unreachable; nothing was written.', {
    cause: e,
  });

/**
 * A natural key as errors and the audit row show it: a key built from long text (a whole document, a
 * proposal) would echo it back, so past 200 characters it is shown as its digest.
 */
export function displayKey(key: string): string {
  return key.length <= 200 ? key : `sha256:${sha256Hex(key)}`;
}

/** The store key of one (agent, tool, key) scope; the natural key is hashed so any length and alphabet fit. */
export function idempotencyKvKey(scope: { agent: string; tool: string; key: string }): string {
  return `idem:v1:${scope.agent}:${scope.tool}:${sha256Hex(scope.key)}`;
}

/**
 * C4, request layer: per (agent, tool, key) the store holds the in-flight lock or the finished result.
 * A duplicate in flight gets `in_progress`; a finished one is replayed; the same key with other
 * arguments is `idempotency_key_reuse`. Validation failures never get here, so they are never stored.
 * `lockTtlMs` shortens the in-flight lock (tests of a crashed holder); the default is LOCK_TTL_MS.
 * `replay: false` keeps only the in-flight lock, for operations that are idempotent by themselves.
 */
export async function acquireIdempotency(
  kv: KvStore,
  scope: { agent: string; tool: string; key: string; args: Record<string, unknown> },
  options: { lockTtlMs?: number; replay?: boolean } = {},
): Promise<IdempotencySlot> {
  const keepResults = options.replay ?? true;
  const kvKey = idempotencyKvKey(scope);
  const fingerprint = sha256Hex(stableStringify(scope.args));
  const lock = JSON.stringify({ s: 'run', t: randomToken(16), f: fingerprint } satisfies Record_);
  // IN_FLIGHT_PREFIX relies on `s` being serialised first.
  let claim: Awaited<ReturnType<KvStore['claim']>>;
  try {
    claim = await kv.claim(kvKey, lock, options.lockTtlMs ?? LOCK_TTL_MS);
  } catch (e) {
    throw kvFailure(e);
  }
  if (!claim.claimed) {
    const shown = displayKey(scope.key);
    const held = claim.current === null ? null : (JSON.parse(claim.current) as Record_);
    if (held !== null && held.f !== fingerprint) {
      throw new ToolError(
        'idempotency_key_reuse',
        `${scope.tool} was already called for this key (${shown}) with different arguments`,
        {
          details: { key: shown },
          hint: 'Repeat the original arguments to get the original result, or use the update tool to change the object.',
        },
      );
    }
    if (held?.s === 'done') return { replay: { ...held.e, replayed: true }, settle: async () => {} };
    throw new ToolError('in_progress', `The same ${scope.tool} call for ${shown} is still running`, {
      details: { key: shown, retry_after_ms: 500 },
    });
  }
  return {
    async settle(envelope) {
      try {
        if (envelope.ok && keepResults) {
          const done = JSON.stringify({ s: 'done', f: fingerprint, e: envelope } satisfies Record_);
          await kv.compareAndSet(kvKey, lock, done, RESULT_TTL_MS);
        } else {
          await kv.compareAndDelete(kvKey, lock);
        }
      } catch {
        // The durable layer (natural keys in Postgres) still holds; a lost settle only costs a re-run.
      }
    },
  };
}
