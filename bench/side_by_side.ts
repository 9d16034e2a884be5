// Load, side by side: autocannon in a worker thread, CONNECTIONS connections; ROUNDS rounds of every case
// for SECONDS each, the echoes at the start of each round and at the end. A case's ratio is the median over
// rounds of its req/s against the runs beside it of the echo that answers the same bytes (tools/list's for
// list, a tools/call's for call): other processes on the machine move the absolute numbers a lot, and a
// disturbed round should not decide the result.
import { Worker } from 'node:worker_threads';
import type { Echo } from './echo.ts';
import type { EraForms, Form } from './forms.ts';
import type { LoadRequest, LoadResult } from './load.ts';

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
// Five: on a shared virtual machine one disturbed round in three moved the median by a tenth.
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
export const CONNECTIONS = 10;

/** One autocannon run of `form` against `url`, in a worker thread. */
export function load(url: string, form: Form, seconds: number, warmupSeconds: number): Promise<LoadResult> {
  const request: LoadRequest = {
    url,
    headers: form.headers,
    body: form.body,
    connections: CONNECTIONS,
    warmupSeconds,
    seconds,
  };
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load.ts', import.meta.url), { workerData: request });
    worker.once('message', (m: { ok: true; result: LoadResult } | { ok: false; error: string }) => {
      if (m.ok) resolve(m.result);
      else reject(new Error(m.error));
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

export type CaseKey = 'echo' | 'echoCall' | 'call2025' | 'list2025' | 'call2026' | 'list2026';
export interface LoadCase {
  key: CaseKey;
  url: string;
  form: Form;
}
export type LoadResults = Map<CaseKey, LoadResult[]>;

/** The cases of a round, in the order they run (and are reported). */
export function loadCases(mcpUrl: string, forms: EraForms, echo: Echo): LoadCase[] {
  return [
    { key: 'echo', url: echo.listUrl, form: echo.listForm },
    { key: 'echoCall', url: echo.callUrl, form: echo.callForm },
    { key: 'call2025', url: mcpUrl, form: forms.call2025 },
    { key: 'list2025', url: mcpUrl, form: forms.list2025 },
    { key: 'call2026', url: mcpUrl, form: forms.call2026 },
    { key: 'list2026', url: mcpUrl, form: forms.list2026 },
  ];
}

/** ROUNDS rounds of every case, then a closing run of each echo; refuses errors and non-2xx answers. */
export async function runSideBySide(cases: LoadCase[], echo: Echo): Promise<LoadResults> {
  const results: LoadResults = new Map(cases.map((c) => [c.key, []]));
  const measure = async (key: CaseKey, url: string, form: Form, warmupSeconds: number) => {
    const result = await load(url, form, SECONDS, warmupSeconds);
    if (result.errors > 0 || result.non2xx > 0) {
      throw new Error(
        `${form.label}: ${result.errors} errors and ${result.non2xx} non-2xx responses under load`,
      );
    }
    results.get(key)?.push(result);
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of cases) await measure(c.key, c.url, c.form, round === 0 ? 1 : 0.5);
  }
  await measure('echo', echo.listUrl, echo.listForm, 0.5);
  await measure('echoCall', echo.callUrl, echo.callForm, 0.5);
  return results;
}

const rps = (r: LoadResult) => r.requests / r.seconds;
export const isEcho = (key: CaseKey) => key === 'echo' || key === 'echoCall';

/**
 * Per round: the case's req/s over the mean of the runs of its floor (the echo with the same response
 * bytes) just before and just after it.
 */
export const ratios = (results: LoadResults, key: CaseKey) => {
  const echoes = results.get(key.startsWith('call') ? 'echoCall' : 'echo') ?? [];
  return (results.get(key) ?? []).map((r, i) => {
    const before = echoes[i];
    const after = echoes[i + 1];
    return before && after ? rps(r) / ((rps(before) + rps(after)) / 2) : Number.NaN;
  });
};

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1
    ? (s[mid] ?? Number.NaN)
    : ((s[mid - 1] ?? Number.NaN) + (s[mid] ?? Number.NaN)) / 2;
};

/** All of a case's runs together: req/s, p50 and p99 latency, and each run's req/s. */
export const merged = (results: LoadResults, key: CaseKey) => {
  const runs = results.get(key) ?? [];
  const all = new Float64Array(runs.reduce((n, r) => n + r.latencies.length, 0));
  let at = 0;
  for (const r of runs) {
    all.set(r.latencies, at);
    at += r.latencies.length;
  }
  all.sort();
  const q = (p: number) => all[Math.min(all.length - 1, Math.floor(p * all.length))] ?? Number.NaN;
  const requests = runs.reduce((n, r) => n + r.requests, 0);
  const seconds = runs.reduce((n, r) => n + r.seconds, 0);
  return { rps: requests / seconds, p50: q(0.5), p99: q(0.99), perRun: runs.map(rps) };
};
