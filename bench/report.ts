// The report: the load table and ratios, round trips per call against the goals, the phases, the CPU
// profile, and the last line `bench: call_ratio=… list_ratio=… queue_…=… search_…=…` (README documents it).
import { NOOP } from './app.ts';
import { PHASE_N, type PhaseUs } from './phases.ts';
import type { ProfileSummary } from './profile.ts';
import {
  type CaseKey,
  CONNECTIONS,
  isEcho,
  type LoadCase,
  type LoadResults,
  median,
  merged,
  ROUNDS,
  ratios,
  SECONDS,
} from './side_by_side.ts';
import type { TripRow } from './trips.ts';

const f0 = (n: number) => n.toFixed(0);
const f2 = (n: number) => n.toFixed(2);
const pad = (s: string, n: number) => s.padEnd(n);

/** Prints the load table and the ratios; returns each case's ratio (median over rounds). */
export function printLoad(cases: LoadCase[], results: LoadResults, toolCount: number) {
  console.log(
    `\nLoad: ${CONNECTIONS} connections, ${ROUNDS} rounds × ${SECONDS} s per case (+ warm-up), loopback HTTP, one process`,
  );
  console.log(`(servers on the main thread, autocannon in a worker thread; ${toolCount} tools registered)\n`);
  console.log(
    `${pad('case', 50)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'× echo'.padStart(7)}  per run req/s`,
  );
  const summary = new Map<CaseKey, { rps: number; ratio: number }>();
  for (const c of cases) {
    const m = merged(results, c.key);
    const r = isEcho(c.key) ? [1] : ratios(results, c.key);
    summary.set(c.key, { rps: m.rps, ratio: median(r) });
    console.log(
      `${pad(c.form.label, 50)} ${f0(m.rps).padStart(7)} ${f2(m.p50).padStart(7)} ${f2(m.p99).padStart(7)} ${(isEcho(c.key) ? '1' : f2(median(r))).padStart(7)}  ${m.perRun.map(f0).join(' / ')}`,
    );
  }
  const ratioOf = (key: CaseKey) => summary.get(key)?.ratio ?? Number.NaN;
  const spread = (key: CaseKey) => {
    const r = ratios(results, key);
    return `${f2(Math.min(...r))}–${f2(Math.max(...r))}`;
  };
  console.log(
    `\nratios (median over rounds, each against the runs beside it of the echo with the same response bytes): call/echo ${f2(ratioOf('call2025'))} ` +
      `(rounds ${spread('call2025')}; 2026 form ${f2(ratioOf('call2026'))}), list/echo ${f2(ratioOf('list2025'))} ` +
      `(rounds ${spread('list2025')}; 2026 form ${f2(ratioOf('list2026'))}); goals: call ≥ 0.50 (2026 form ≥ 0.45), list ≥ 0.60`,
  );
  return ratioOf;
}

/** Prints the round trips per call and whether reads and writes meet their goals. */
export function printTrips(trips: TripRow[]) {
  console.log(
    '\nRound trips per call (sequential; db = statements sent to the database, kv = KV store calls):\n',
  );
  console.log(
    `${pad('tool', 36)} ${pad('outcome', 9)} ${'db'.padStart(3)} ${'kv'.padStart(3)}  statements, kv calls`,
  );
  for (const t of trips) {
    const what = [...t.db, ...t.kv.map((k) => `kv.${k}`)].join(', ') || '-';
    console.log(
      `${pad(t.tool, 36)} ${pad(t.outcome, 9)} ${String(t.db.length).padStart(3)} ${String(t.kv.length).padStart(3)}  ${what}`,
    );
  }
  const row = (tool: string) => trips.find((t) => t.tool === tool);
  const reads = ['case_list', 'case_get', 'case_final_text_get'].flatMap((t) => row(t) ?? []);
  const writes = ['case_create (new)', 'case_update', 'case_delete'].flatMap((t) => row(t) ?? []);
  const readsMet = reads.length === 3 && reads.every((r) => r.db.length <= 1 && r.kv.length === 0);
  const writeDbMet = writes.length === 3 && writes.every((w) => w.db.length <= 2);
  const writeKvMet = writes.length === 3 && writes.every((w) => w.kv.length <= 1);
  console.log(
    `\nGoal "a read in one db round trip": ${readsMet ? 'met' : 'NOT met'} (${reads.map((r) => `${r.tool} ${r.db.length}`).join(', ')})`,
  );
  console.log(
    `Goal "a write in ≤ 2 db round trips + 1 KV call": db ${writeDbMet ? 'met' : 'NOT met'}, kv ${writeKvMet ? 'met' : 'NOT met'} ` +
      `(${writes.map((w) => `${w.tool} ${w.db.length}+${w.kv.length}`).join(', ')})`,
  );
  const why: Record<string, string> = {
    claim: 'claim: take the in-flight lock',
    compareAndSet: 'compareAndSet: store the result for replay',
    compareAndDelete: 'compareAndDelete: release the lock',
  };
  for (const w of writes) {
    const extraDb = w.db.filter((d) => d !== 'insert audit_log');
    const notes: string[] = [];
    if (w.db.includes('insert audit_log')) notes.push('1 db for the audit row (C8)');
    if (extraDb.length > 1) notes.push(`${extraDb.length} db for the work (${extraDb.join(', ')})`);
    if (w.kv.length > 1)
      notes.push(`${w.kv.length} kv for idempotency (${w.kv.map((k) => why[k] ?? k).join(', then ')})`);
    if (notes.length > 0) console.log(`  ${w.tool}: ${notes.join('; ')}`);
  }
  const coldRow = row(`${NOOP} (token's first call)`);
  console.log(
    `  auth: ${coldRow?.db.length ?? '?'} db lookup on a token's first call, then cached per token (AUTH_CACHE=process: 0 db until a revocation or 10 s)`,
  );
}

/** Prints the in-process phases of a call, µs per request. */
export function printPhases(phaseUs: PhaseUs) {
  console.log(
    `\nPhases, in process (app.fetch on a Request, no sockets), µs per request, ${PHASE_N} sequential, median of rounds:`,
  );
  const phaseLine = (label: string, us: number) => console.log(`  ${pad(label, 66)} ${f0(us).padStart(5)}`);
  phaseLine('echo route (Hono, parse body, same bytes as tools/list)', phaseUs.echo);
  phaseLine('kernel alone (callTool: grant, decode, envelope; no-op tool)', phaseUs.kernel);
  phaseLine(`plain JSON route POST /v1/tools/${NOOP} (Hono, auth, kernel)`, phaseUs.plain);
  phaseLine('/mcp tools/call no-op, 2025-era (binding fast path)', phaseUs.call2025);
  phaseLine('/mcp tools/call no-op, 2026-07-28 (SDK handler)', phaseUs.call2026);
  phaseLine('/mcp tools/list, 2025-era (binding fast path)', phaseUs.list2025);
  console.log(
    `  → over the plain JSON route, /mcp adds ${f0(phaseUs.call2025 - phaseUs.plain)} µs on the 2025 fast path and ` +
      `${f0(phaseUs.call2026 - phaseUs.plain)} µs through the SDK handler (per-request Server + transport, JSON-RPC validation); Hono + auth + kernel ${f0(phaseUs.plain)} µs, ` +
      `of which the kernel ${f0(phaseUs.kernel)} µs`,
  );
}

/** Prints the CPU profile of the server thread under the 2025-era call load. */
export function printProfile(requests: number, prof: ProfileSummary) {
  console.log(
    `\nProfile of the server thread, ${requests} tools/calls (2025-era) in 3 s; busy ${f0(prof.busyPercent)}% of wall; % of busy time:`,
  );
  console.log('  self time by area:');
  for (const [k, v] of prof.selfByArea.slice(0, 10)) console.log(`  ${f2(v).padStart(6)}%  ${k}`);
  console.log('  on the stack (inclusive) by area:');
  for (const [k, v] of prof.onStackByArea.slice(0, 8)) console.log(`  ${f2(v).padStart(6)}%  ${k}`);
  console.log('  hottest functions (self):');
  for (const [k, v] of prof.selfByFunction.slice(0, 8)) console.log(`  ${f2(v).padStart(6)}%  ${k}`);
}

/** Prints the total time and the last line: the 2025-era ratios, then the queue and search figures. */
export function printLastLine(
  benchStarted: number,
  ratioOf: (key: CaseKey) => number,
  figures: Record<string, string | number>,
) {
  console.log(`\nbench took ${f0((performance.now() - benchStarted) / 1000)} s`);
  console.log(
    `bench: call_ratio=${f2(ratioOf('call2025'))} list_ratio=${f2(ratioOf('list2025'))} ` +
      Object.entries(figures)
        .map(([k, v]) => `${k}=${v}`)
        .join(' '),
  );
}
