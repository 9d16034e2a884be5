import * as nodeCrypto from 'node:crypto';

/** JSON with object keys sorted at every level, so equal values always give the same text. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}

/**
 * The one-shot `crypto.hash` (Node ≥ 21.7) where the runtime has it: no Hash object per call, about a fifth of
 * createHash's cost on a token-sized input; workerd's node:crypto may lack it, then createHash.
 */
const oneShot = (
  nodeCrypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: 'hex') => string }
).hash;

/**
 * SHA-256 as hex. node:crypto (Node, and workerd with nodejs_compat) hashes synchronously: WebCrypto's
 * `subtle.digest` cost ~55 µs per call on Node (a job per digest), most of a cached-token request.
 */
export function sha256Hex(input: string | Uint8Array): string {
  if (oneShot !== undefined) return oneShot('sha256', input, 'hex');
  return nodeCrypto.createHash('sha256').update(input).digest('hex');
}

/** Compares two strings in time independent of where they differ (both are hashed first). */
export function constantTimeEqual(a: string, b: string): boolean {
  const ha = sha256Hex(a);
  const hb = sha256Hex(b);
  let diff = 0;
  for (let i = 0; i < ha.length; i++) diff |= ha.charCodeAt(i) ^ hb.charCodeAt(i);
  return diff === 0;
}

export function randomToken(bytes = 32): string {
  const buf = crypto.getRandomValues(new Uint8Array(bytes));
  let bin = '';
  for (const b of buf) bin += String.fromCharCode(b);
  return btoa(bin).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}
