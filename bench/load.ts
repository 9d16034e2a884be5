// The load generator, run in a worker thread so it does not share the servers' event loop (one process,
// two threads). autocannon drives the connections; latencies are kept here in full precision because
// autocannon's own histogram has 1 ms resolution, too coarse for sub-millisecond responses.
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

export interface LoadRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  connections: number;
  warmupSeconds: number;
  seconds: number;
}

export interface LoadResult {
  requests: number;
  /** Wall time of the measured run. */
  seconds: number;
  /** Every response time in ms, sorted. */
  latencies: Float64Array;
  errors: number;
  non2xx: number;
}

function run(request: LoadRequest, seconds: number, latencies: number[] | null): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const tracker = autocannon(
      {
        url: request.url,
        method: 'POST',
        headers: request.headers,
        body: request.body,
        connections: request.connections,
        pipelining: 1,
        duration: seconds,
        timeout: 10,
      },
      (err, result) => {
        if (err) return reject(err);
        resolve({
          requests: result.totalCompletedRequests,
          seconds: (performance.now() - started) / 1000,
          latencies: latencies ? Float64Array.from(latencies).sort() : new Float64Array(),
          errors: result.errors + result.timeouts,
          non2xx: result.non2xx,
        });
      },
    );
    if (latencies) {
      tracker.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
        latencies.push(ms);
      });
    }
  });
}

if (parentPort !== null) {
  const port = parentPort;
  const request = workerData as LoadRequest;
  (async () => {
    if (request.warmupSeconds > 0) await run(request, request.warmupSeconds, null);
    const result = await run(request, request.seconds, []);
    port.postMessage({ ok: true, result }, [result.latencies.buffer as ArrayBuffer]);
  })().catch((err: unknown) => port.postMessage({ ok: false, error: String(err) }));
}
