/** Checks a TTL (milliseconds) and rounds it up to a whole millisecond, the unit both stores work in. */
export function ttlMillis(ttlMs: number): number {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0)
    throw new RangeError(`TTL must be a positive number of ms, got ${ttlMs}`);
  return Math.ceil(ttlMs);
}
