/**
 * The work the system exists for (part of `npm run bench`; alone: `node bench/case_flow.ts`): a case from its
 * first upload to a validated, exported draft, through the tools over loopback HTTP (/v1/tools), five agents
 * calling at once with their own tokens and grants — ceo and analyst upload, researcher follows the reading
 * (extraction_status), writer writes the draft's blocks and exports it, qa validates it. The app is npm start's:
 * the in-process drain loop and the reader threads. Prints the total seconds and p50/p99 per tool class.
 *
 * One case on PGlite in memory: BENCH_FLOW_DOCS (30) documents of BENCH_FLOW_PAGES (600) pages in all, text
 * PDFs made from the case-file fixture (test/harness/big_pdf.ts), of which BENCH_FLOW_SCANNED (10: a third of
 * the pages) are scans: image-only PDFs of the same number of pages, the two scan fixtures in turn, read by OCR.
 * Then BENCH_FLOW_CASES (20) cases at once on the local PostgreSQL when reachable (a scratch database), each
 * of BENCH_FLOW_PARALLEL_DOCS (3) documents of BENCH_FLOW_PARALLEL_PAGES (30) pages in all, no scans (the full
 * size: the same as the single case).
 */
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { makeJobHandlers, ocrEngine, tools } from '../entry/registries.ts';
import { loadAgentsFromDir } from '../src/agents/load_node.ts';
import { mintToken } from '../src/auth/tokens.ts';
import { migrateDb } from '../src/db/migrate.ts';
import { openPglite } from '../src/db/pglite.ts';
import type { DbHandle } from '../src/db/types.ts';
import { createReaderPool } from '../src/documents/reader_pool.ts';
import { startDrainLoop } from '../src/jobs/loop.ts';
import { createPostgresKv } from '../src/kv/postgres.ts';
import { createLogger } from '../src/log.ts';
import { createChambers } from '../src/server.ts';
import { bigPdf } from '../test/harness/big_pdf.ts';
import { imagePdf } from '../test/harness/scans.ts';
import { listen, root } from './app.ts';
import { scratchPostgres } from './scratch.ts';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const DOCS = num('BENCH_FLOW_DOCS', 30);
const PAGES = num('BENCH_FLOW_PAGES', 600);
const SCANNED = num('BENCH_FLOW_SCANNED', 10);
const CASES = num('BENCH_FLOW_CASES', 20);
const PARALLEL_DOCS = num('BENCH_FLOW_PARALLEL_DOCS', 3);
const PARALLEL_PAGES = num('BENCH_FLOW_PARALLEL_PAGES', 30);

const AGENTS = ['ceo', 'analyst', 'researcher', 'writer', 'qa'] as const;
type Agent = (typeof AGENTS)[number];

/** Tool → the class it is reported under. */
const CLASS: Record<string, string> = {
  case_create: 'write',
  document_upload: 'upload',
  extraction_status: 'status',
  block_write: 'write',
  draft_validate: 'validate',
  draft_export: 'export',
};

/** The refusals whose hint says to retry the same call shortly (the others need another step first). */
const RETRYABLE = new Set(['dependency_unavailable', 'rate_limited']);

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

interface Server {
  call(agent: Agent, tool: string, args: unknown): Promise<Record<string, unknown>>;
  latencies: Map<string, number[]>;
  /** Calls refused with a retryable code and made again, by tool class. */
  retries: Map<string, number>;
  close(): Promise<void>;
}

async function startServer(handle: DbHandle): Promise<Server> {
  const reader = createReaderPool();
  const handlers = makeJobHandlers({ reader });
  const loop = startDrainLoop({ db: handle.db, handlers, log: createLogger('silent') });
  const kv = createPostgresKv(handle.db);
  const { app } = createChambers({
    agents: await loadAgentsFromDir(`${root}agents`),
    env: { RATE_LIMIT_PER_SECOND: '0', LOG_LEVEL: 'silent' },
    services: async () => ({ db: handle.db, kv }),
    tools,
    jobHandlers: handlers,
    defaultOwnerGate: 'ack',
    defaultAuthCache: 'process',
    kick: () => loop.kick(),
  });
  const server = await listen(app.fetch);
  const tokens = new Map<Agent, string>();
  for (const a of AGENTS) tokens.set(a, await mintToken(handle.db, a, 'bench'));
  const latencies = new Map<string, number[]>();
  const retries = new Map<string, number>();
  return {
    latencies,
    retries,
    async call(agent, tool, args) {
      const kind = CLASS[tool] ?? tool;
      // As an agent does with a retryable refusal: the same arguments again after a pause (the tools'
      // idempotency makes the retry safe); the latency counted is the whole call, retries included.
      const started = performance.now();
      for (let attempt = 1; ; attempt++) {
        const res = await fetch(`${server.url}/v1/tools/${tool}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens.get(agent)}`, 'content-type': 'application/json' },
          body: JSON.stringify(args),
        });
        const body = (await res.json()) as {
          ok: boolean;
          data: Record<string, unknown>;
          error?: { code?: string };
        };
        if (!body.ok && RETRYABLE.has(body.error?.code ?? '') && attempt < 10) {
          retries.set(kind, (retries.get(kind) ?? 0) + 1);
          await new Promise((r) => setTimeout(r, 250 * attempt));
          continue;
        }
        latencies.set(kind, [...(latencies.get(kind) ?? []), performance.now() - started]);
        if (!body.ok) throw new Error(`${agent} ${tool}: ${JSON.stringify(body.error)}`);
        return body.data;
      }
    },
    async close() {
      await loop.stop();
      await reader.close();
      await server.close();
    },
  };
}

/** One case, first upload to exported draft; returns its seconds. */
async function runCase(s: Server, n: number, docs: number, pages: number, scanned: number): Promise<number> {
  const started = performance.now();
  const created = (await s.call('ceo', 'case_create', {
    case_number: `ערר ${7000 + n}/26`,
    title: `תיק מדידה ${n}`,
    appellant: 'פלוני',
  })) as { case: { id: string } };
  const caseId = created.case.id;
  const scans = await Promise.all(
    ['scan-a.png', 'scan-b.png'].map(async (f) => readFile(`${root}test/fixtures/scans/${f}`)),
  );
  const perDoc = Math.max(1, Math.round(pages / Math.max(1, docs)));
  // A trailing comment after %%EOF makes each scan's bytes (and sha256) its own; readers ignore it.
  const scannedPdf = async (tag: string) =>
    Buffer.concat([
      await imagePdf(Array.from({ length: perDoc }, (_, k) => scans[k % scans.length] ?? new Uint8Array())),
      Buffer.from(`\n%${tag}\n`),
    ]);
  // The uploads, shared by the two agents that hold document_upload, two at a time each.
  const queue = Array.from({ length: docs }, (_, i) => i);
  const ids: string[] = [];
  const uploader = async (agent: Agent) => {
    for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
      const tag = `flow-${n}-${i}-${crypto.randomUUID()}`;
      const bytes = i < scanned ? await scannedPdf(tag) : await bigPdf(perDoc, tag);
      const up = (await s.call(agent, 'document_upload', {
        corpus: 'case',
        case_id: caseId,
        title: `מסמך ${i + 1}`,
        content_base64: Buffer.from(bytes).toString('base64'),
      })) as { document: { id: string } };
      ids.push(up.document.id);
    }
  };
  await Promise.all([uploader('ceo'), uploader('ceo'), uploader('analyst'), uploader('analyst')]);
  // The researcher follows the reading while the writer drafts.
  const reading = (async () => {
    for (const id of ids) {
      for (;;) {
        const st = (await s.call('researcher', 'extraction_status', { document_id: id })) as {
          document?: { status: string; error: string | null };
        };
        if (st.document?.status === 'ready') break;
        if (st.document?.status === 'failed') throw new Error(`document failed: ${st.document.error}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  })();
  const paragraph = 'העוררים טוענים כי השומה שגויה, והוועדה המקומית משיבה כי נערכה כדין.';
  await s.call('writer', 'block_write', {
    case_id: caseId,
    blocks: [
      { kind: 'background', text: `${paragraph}\n${paragraph}` },
      { kind: 'appellant_claims', text: paragraph },
      { kind: 'respondent_claims', text: paragraph },
      { kind: 'discussion', key: 'discussion:q1', title: 'השאלה הראשונה', text: paragraph },
      { kind: 'outcome', text: 'הערר נדחה.' },
    ],
  });
  await reading;
  await s.call('qa', 'draft_validate', { case_id: caseId });
  await s.call('writer', 'draft_export', { case_id: caseId, wait_ms: 20_000 });
  return (performance.now() - started) / 1000;
}

function printClasses(label: string, s: Server, seconds: number) {
  console.log(`\n${label}: ${seconds.toFixed(1)} s in all`);
  for (const [kind, xs] of [...s.latencies].sort()) {
    console.log(
      `  ${kind.padEnd(10)} ${String(xs.length).padStart(5)} calls  p50 ${percentile(xs, 50).toFixed(1).padStart(8)} ms  p99 ${percentile(xs, 99).toFixed(1).padStart(8)} ms${
        s.retries.has(kind) ? `  (${s.retries.get(kind)} retried after a retryable refusal)` : ''
      }`,
    );
  }
}

export async function runCaseFlowBench(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const handle = await openPglite();
  await migrateDb(handle);
  const one = await startServer(handle);
  try {
    const seconds = await runCase(one, 1, DOCS, PAGES, SCANNED);
    printClasses(
      `Case flow, PGlite: 1 case, ${DOCS} documents, ${PAGES} pages (${SCANNED} scanned), 5 agents`,
      one,
      seconds,
    );
    out.flow_case_s = seconds.toFixed(1);
    out.flow_upload_p99_ms = percentile(one.latencies.get('upload') ?? [], 99).toFixed(0);
  } finally {
    await one.close();
    // The scans' Tesseract worker (started on first use; lazy, so a later part starts it again if it needs it).
    await ocrEngine.close();
    await handle.close();
  }
  const scratch = await scratchPostgres();
  if (scratch === null) {
    console.log('\nCase flow on PostgreSQL: skipped (no local PostgreSQL)');
    return out;
  }
  const many = await startServer(scratch.handle);
  try {
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CASES }, (_, i) => runCase(many, 100 + i, PARALLEL_DOCS, PARALLEL_PAGES, 0)),
    );
    const seconds = (performance.now() - started) / 1000;
    printClasses(
      `Case flow, PostgreSQL: ${CASES} cases at once, each ${PARALLEL_DOCS} documents, ${PARALLEL_PAGES} pages, 5 agents`,
      many,
      seconds,
    );
    out.flow_cases_pg_s = seconds.toFixed(1);
    out.flow_cases_pg_upload_p99_ms = percentile(many.latencies.get('upload') ?? [], 99).toFixed(0);
  } finally {
    await many.close();
    await scratch.drop();
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const pairs = await runCaseFlowBench();
  console.log(
    `bench: ${Object.entries(pairs)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
}
