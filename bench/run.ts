/**
 * `npm run bench`: Chambers against raw Hono JSON echoes (the floors), side by side in one process, over
 * loopback HTTP; then database and KV round trips per case tool, and a CPU profile of tools/call.
 *
 * - The app (bench/app.ts) is the real one with counting stores, plus one fixture tool, `bench_noop_get`,
 *   granted to ceo: a tools/call that measures auth, decoding and the envelope only. The requests are the
 *   official client's, in each era (bench/forms.ts); the echoes answer the same bytes (bench/echo.ts).
 * - Round trips per call of each case tool (bench/trips.ts).
 * - Load (bench/side_by_side.ts): autocannon in a worker thread, 10 connections; BENCH_ROUNDS (5) rounds of
 *   every case for BENCH_SECONDS (2) each, the echoes at the start of each round and at the end. A ratio is
 *   the median over rounds of the case against the runs beside it of the echo that answers the same bytes
 *   (tools/list's for list, a tools/call's for call): other processes on the machine move the absolute
 *   numbers a lot, and a disturbed round should not decide the result.
 * - A CPU profile of tools/call (bench/profile.ts) and the phases of one call in process (bench/phases.ts).
 * - Then the database-bound floor (bench/floor.ts): case_get through /mcp and /v1 against a raw Hono route
 *   running the same query on the same pool and answering the same bytes.
 * - Then the queue (bench/queue.ts): 5,000 no-op jobs drained by 1 and by 4 concurrent drains, on the
 *   local PostgreSQL when reachable and on PGlite, counting jobs that ran twice or never.
 * - Then the search benchmark (bench/search.ts): ranked search vs a sequential ILIKE scan at 10,000 and
 *   100,000 chunks, on PGlite and on the local PostgreSQL.
 * - OCR (bench/ocr.ts): pages per second of the fixture scans through the Tesseract worker, and the peak
 *   RSS growth per page.
 * - Then the analysis benchmark (bench/analysis.ts): pages per second of the three analysis extractors on
 *   the case file fixture scaled to 500 pages.
 * - Then the citation benchmark (bench/citations.ts): citations resolved per second over 2,000 generated
 *   decisions, and the p50 of citation_incoming_list for the ruling they all cite.
 * - Then the drafting benchmark (bench/drafting.ts): draft_export's job on a generated decision of about 40 pages.
 * - Then reading beside the agents (bench/reading.ts): the p99 of case_get while 60-page PDFs are read, parsed
 *   in-line and in the reader threads of `npm start`, each against the idle p99 of the same server, and while a
 *   scan is read by OCR (12 pages here, BENCH_READING_SCAN_PAGES; 60 when bench/reading.ts runs alone).
 * - Then draft_validate (bench/validate.ts): p50 over a case of 200 claims and 60 citations with quotes, and
 *   the share caught of 50 injected errors of each kind (citations and quotes), with false errors on a clean draft.
 * - Then start-up and memory (bench/startup.ts): `node entry/node.ts` on an existing data directory, spawn to
 *   first answered tools/list; its RSS idle and after 10,000 mixed calls. (A fresh workerd isolate's first
 *   tools/list: `npm run bench:coldstart`, which bundles the Workers first.)
 * - Then the case flow (bench/case_flow.ts): one case of 30 documents from first upload to an exported draft
 *   through the tools, five agents at once, on PGlite; then 20 cases at once on the local PostgreSQL.
 * - BENCH_ONLY=floor,startup,flow,… runs the load, profile and phases, then only the parts named.
 * - The report (bench/report.ts) ends with `bench: call_ratio=<x> list_ratio=<y> queue_…=… search_…=…
 *   analysis_pages_per_s=… citations_per_s=… citation_incoming_p50_ms=…` (2025-era stateless requests over
 *   echo, then the queue, search, analysis and citation figures).
 */
import { runAnalysisBench } from './analysis.ts';
import { root, startApp } from './app.ts';
import { runCaseFlowBench } from './case_flow.ts';
import { runCitationBench } from './citations.ts';
import { runDraftingBench } from './drafting.ts';
import { startEcho } from './echo.ts';
import { runFloorBench } from './floor.ts';
import { eraForms, verify } from './forms.ts';
import { runOcrBench } from './ocr.ts';
import { measurePhases } from './phases.ts';
import { profileWhile } from './profile.ts';
import { benchQueue, printQueueBench } from './queue.ts';
import { runReadingBench } from './reading.ts';
import { printLastLine, printLoad, printPhases, printProfile, printTrips } from './report.ts';
import { runSearchBench } from './search.ts';
import { load, loadCases, runSideBySide } from './side_by_side.ts';
import { runStartupBench } from './startup.ts';
import { measureTrips } from './trips.ts';
import { runValidateBench } from './validate.ts';

const benchStarted = performance.now();

const bench = await startApp();
const { mcpUrl } = bench;
const forms = eraForms(bench.token);
const listReply = await verify(mcpUrl, forms.list2025, 'list');
const callReply = await verify(mcpUrl, forms.call2025, 'call');
await verify(mcpUrl, forms.call2026, 'call');
await verify(mcpUrl, forms.list2026, 'list');
const echo = await startEcho(forms, listReply, callReply);

const trips = await measureTrips(bench);

const cases = loadCases(mcpUrl, forms, echo);
const results = await runSideBySide(cases, echo);
// Still correct after the load (a 200 carrying an error would not show up in the status counts).
await verify(mcpUrl, forms.call2025, 'call');
await verify(mcpUrl, forms.call2026, 'call');

// Where the time goes in a tools/call: a CPU profile of the server thread under the 2025-era call load.
const { result: profiled, summary: prof } = await profileWhile(
  () => load(mcpUrl, forms.call2025, 3, 0),
  root,
);

const phaseUs = await measurePhases(bench, forms, echo);

const ratioOf = printLoad(cases, results, bench.toolCount);
printTrips(trips);
printPhases(phaseUs);
printProfile(profiled.requests, prof);

await Promise.all([bench.chambers.close(), echo.close()]);
await Promise.all([bench.db.close(), bench.kvDb.close()]);
// BENCH_ONLY=floor,startup,… runs only those parts after the load (docs/operations.md); unset: all of them.
const only = new Set((process.env.BENCH_ONLY ?? '').split(',').filter((x) => x !== ''));
const part = async <T extends object>(name: string, run: () => Promise<T>): Promise<T | object> =>
  only.size === 0 || only.has(name) ? run() : {};
const floor = await part('floor', runFloorBench);
const queueKeys = await part('queue', async () => printQueueBench(await benchQueue()));
const search = await part('search', runSearchBench);
const analysis = await part('analysis', runAnalysisBench);
const ocr = await part('ocr', runOcrBench);
const citations = await part('citations', runCitationBench);
const drafting = await part('drafting', runDraftingBench);
// The scan: 12 pages here unless BENCH_READING_SCAN_PAGES says (60 when bench/reading.ts runs alone).
const reading = await part('reading', () =>
  runReadingBench({ scanPages: Number(process.env.BENCH_READING_SCAN_PAGES ?? 12) }),
);
const validate = await part('validate', runValidateBench);
const startup = await part('startup', runStartupBench);
const flow = await part('flow', runCaseFlowBench);

printLastLine(benchStarted, ratioOf, {
  call2026_ratio: ratioOf('call2026').toFixed(2),
  list2026_ratio: ratioOf('list2026').toFixed(2),
  ...floor,
  ...queueKeys,
  ...search,
  ...analysis,
  ...ocr,
  ...citations,
  ...drafting,
  ...reading,
  ...validate,
  ...startup,
  ...flow,
});
