// Phases of one tools/call, in process and sequential (no sockets, no load thread): the kernel alone,
// the whole app (Hono, auth, SDK, kernel), and the echo route, each as microseconds per call.
import type { Hono } from 'hono';
import { callTool } from '../src/contract/execute.ts';
import { noJobs } from '../src/jobs/context.ts';
import { createLogger } from '../src/log.ts';
import { type BenchApp, NOOP } from './app.ts';
import type { Echo } from './echo.ts';
import type { EraForms, Form } from './forms.ts';

export const PHASE_N = 2000;
const PHASE_ROUNDS = 3;

async function perCall(n: number, once: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(500, n); i++) await once();
  const started = performance.now();
  for (let i = 0; i < n; i++) await once();
  return ((performance.now() - started) * 1000) / n;
}

const viaApp = (target: Hono['fetch'], url: string, form: Form) => async () => {
  const res = await target(new Request(url, { method: 'POST', headers: form.headers, body: form.body }));
  await res.text();
};

export async function measurePhases(bench: BenchApp, forms: EraForms, echo: Echo) {
  const { app, mcpUrl } = bench;
  const noopTool = bench.registry.get(NOOP);
  if (noopTool === undefined) throw new Error('the fixture tool is not registered');
  const ceoGrants = bench.grants.get('ceo') ?? new Set<string>();
  const kernelCtx = {
    db: bench.db.db,
    kv: bench.kv,
    agent: 'ceo',
    requestId: 'bench',
    now: () => new Date(),
    env: {},
    log: createLogger('silent'),
    progress: async () => {},
    waitUntil: () => {},
    jobs: noJobs,
    holds: (tool: string) => ceoGrants.has(tool),
  };
  const cases = {
    kernel: () => callTool({ tool: noopTool, args: {}, ctx: kernelCtx, grants: ceoGrants }),
    call2025: viaApp(app.fetch, mcpUrl, forms.call2025),
    call2026: viaApp(app.fetch, mcpUrl, forms.call2026),
    list2025: viaApp(app.fetch, mcpUrl, forms.list2025),
    // The same tool through the plain JSON route: Hono, auth and the kernel, without the MCP SDK.
    plain: viaApp(app.fetch, `${bench.chambers.url}/v1/tools/${NOOP}`, {
      label: 'plain',
      headers: { authorization: `Bearer ${bench.token}`, 'content-type': 'application/json' },
      body: '{}',
    }),
    echo: viaApp(echo.app.fetch, echo.listUrl, echo.listForm),
  };
  // Rounds of every case in turn, the median kept: measured once each, whichever case came first paid for the
  // process warming up (the 2025 fast path read 121 µs first and ~50 µs once warm).
  const runs = new Map<keyof typeof cases, number[]>();
  for (let round = 0; round < PHASE_ROUNDS; round++) {
    for (const [name, once] of Object.entries(cases) as [keyof typeof cases, () => Promise<unknown>][]) {
      runs.set(name, [...(runs.get(name) ?? []), await perCall(PHASE_N, once)]);
    }
  }
  const median = (name: keyof typeof cases) => {
    const xs = [...(runs.get(name) ?? [])].sort((a, b) => a - b);
    return xs[Math.floor(xs.length / 2)] ?? Number.NaN;
  };
  return {
    kernel: median('kernel'),
    call2025: median('call2025'),
    call2026: median('call2026'),
    list2025: median('list2025'),
    plain: median('plain'),
    echo: median('echo'),
  };
}

export type PhaseUs = Awaited<ReturnType<typeof measurePhases>>;
