/**
 * A per-agent token bucket, held by one app instance (per process on Node, per isolate on Workers).
 * It protects the database from a runaway agent loop; it is not a billing-grade global limit.
 */
export interface RateLimiter {
  /** Takes one call for `agent`; returns 0 when allowed, else the milliseconds until one is. */
  take(agent: string): number;
}

export function createRateLimiter(opts: {
  perSecond: number;
  burst: number;
  now?: () => number;
}): RateLimiter {
  const now = opts.now ?? Date.now;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(agent) {
      const t = now();
      const b = buckets.get(agent) ?? { tokens: opts.burst, at: t };
      b.tokens = Math.min(opts.burst, b.tokens + ((t - b.at) / 1000) * opts.perSecond);
      b.at = t;
      buckets.set(agent, b);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return 0;
      }
      return Math.ceil(((1 - b.tokens) / opts.perSecond) * 1000);
    },
  };
}
