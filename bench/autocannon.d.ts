// The part of autocannon 9's API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    pipelining?: number;
    /** Seconds. */
    duration?: number;
    /** Seconds before a request counts as a timeout. */
    timeout?: number;
  }

  /** The result as a worker thread gets it (no aggregation there): counts, not histograms. */
  export interface Result {
    totalCompletedRequests: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    /** Seconds. */
    duration: number;
  }

  /** Emits 'response' (client, statusCode, bytes, responseTimeMs) for every response. */
  export default function autocannon(
    options: Options,
    done: (err: Error | null, result: Result) => void,
  ): EventEmitter;
}
