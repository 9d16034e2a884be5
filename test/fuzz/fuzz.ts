// The fuzzer: `calls` tools/call requests through /mcp, each built from a tool's advertised input schema and
// mutated (values.ts), the sequence fixed by `seed` (fast-check's sampler), so a run replays. Each answer must
// be a JSON-RPC error or a result carrying a C1 envelope (mirrored in its text block, isError exactly on
// error), never an HTTP 5xx and never `internal`; afterwards the server must still answer, and every string a
// case tool stored must read back byte for byte.
import * as fc from 'fast-check';
import * as z from 'zod';
import { errorCatalogue } from '../../src/contract/errors.ts';
import type { Registry } from '../../src/contract/registry.ts';
import type { TestServer } from '../harness/server.ts';
import { inputSchemaOf, sampleArgs } from '../harness/tool_args.ts';
import type { World } from '../harness/world.ts';
import { callPlan, type Mutation, mutate, RAW_PLACEHOLDER, RawJson } from './values.ts';

export interface FuzzOptions {
  server: TestServer;
  registry: Registry;
  world: World;
  calls: number;
  seed: number;
  /** The agent that calls (granted every tool). */
  agent?: 'ceo' | 'analyst';
  /** Replays only these call numbers (from a failure's report). */
  only?: readonly number[];
}

export interface Finding {
  call: number;
  tool: string;
  mutation: Mutation;
  problem: string;
  request: string;
  response: string;
}

export interface FuzzReport {
  seed: number;
  calls: number;
  ms: number;
  /** Envelope statuses and JSON-RPC errors. */
  outcomes: Record<'ok' | 'empty' | 'error' | 'rpc_error', number>;
  /** Envelope error codes, by count. */
  codes: Record<string, number>;
  mutations: Record<string, number>;
  tools: number;
  http5xx: number;
  internal: number;
  nonEnvelope: number;
  roundTrips: { checked: number; mismatched: number };
  alive: boolean;
  findings: Finding[];
}

const envelopeSchema = z.union([
  z.object({
    ok: z.literal(true),
    status: z.enum(['ok', 'empty']),
    data: z.record(z.string(), z.unknown()),
    message: z.string(),
    replayed: z.literal(true).optional(),
  }),
  z.object({
    ok: z.literal(false),
    status: z.literal('error'),
    error: z.object({
      code: z.enum(Object.keys(errorCatalogue) as [string, ...string[]]),
      message: z.string().min(1),
      hint: z.string().min(1),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
    message: z.string(),
  }),
]);

const rpcErrorSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.number(), z.string(), z.null()]),
  error: z.object({ code: z.number().int(), message: z.string() }),
});

const resultSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.number(),
  result: z.object({
    content: z.array(z.object({ type: z.literal('text'), text: z.string() })).length(1),
    structuredContent: z.record(z.string(), z.unknown()),
    isError: z.boolean(),
  }),
});

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

/** The JSON-RPC message answering call `id`, from a JSON or an SSE body. */
function answerOf(contentType: string, text: string, id: number): unknown {
  if (!contentType.includes('text/event-stream')) return JSON.parse(text);
  const messages = text
    .split('\n')
    .filter((l) => l.startsWith('data:'))
    .map((l) => JSON.parse(l.slice(5)) as { id?: unknown });
  return messages.find((m) => m.id === id) ?? messages.at(-1);
}

/** The request body; a RawJson value goes in as its text (nesting deeper than JSON.stringify can write). */
function requestText(id: number, name: string, args: unknown, progress: boolean): string {
  const raw =
    typeof args === 'object' && args !== null
      ? Object.values(args).find((v): v is RawJson => v instanceof RawJson)
      : undefined;
  const text = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args, ...(progress ? { _meta: { progressToken: `p${id}` } } : {}) },
  });
  return raw === undefined ? text : text.replace(JSON.stringify(RAW_PLACEHOLDER), raw.text);
}

/** The fields of a case that the case tools store as given (the practice area is a vocabulary, mapped on input). */
const CASE_TEXT = [
  'case_number',
  'title',
  'appellant',
  'respondent',
  'committee',
  'property_address',
  'notes',
] as const;

export async function fuzz(o: FuzzOptions): Promise<FuzzReport> {
  const started = Date.now();
  const tools = o.registry.tools.filter((t) => t.def.ownerOnly !== true);
  const plans = fc.sample(callPlan, { seed: o.seed, numRuns: o.calls });
  const agent = o.agent ?? 'ceo';
  const report: FuzzReport = {
    seed: o.seed,
    calls: 0,
    ms: 0,
    outcomes: { ok: 0, empty: 0, error: 0, rpc_error: 0 },
    codes: {},
    mutations: {},
    tools: tools.length,
    http5xx: 0,
    internal: 0,
    nonEnvelope: 0,
    roundTrips: { checked: 0, mismatched: 0 },
    alive: false,
    findings: [],
  };
  const ids: Record<string, string> = {
    case_id: o.world.otherCaseId,
    like_case_id: o.world.otherCaseId,
    document_id: o.world.otherDocumentId,
    claim_id: o.world.claimId,
    into_claim_id: o.world.claimId,
    mission_id: o.world.missionId,
    lease_id: o.world.leaseId,
    device_id: o.world.deviceId,
    direction_id: o.world.directionId,
    export_id: o.world.exportId,
    precedent_id: o.world.precedentId,
    missing_precedent_id: o.world.openMissingPrecedentId,
    halacha_id: o.world.holdingId,
    ...(o.world.projectId === null ? {} : { project_id: o.world.projectId }),
  };
  const post = (body: string) =>
    o.server.fetch('/mcp', {
      method: 'POST',
      headers: { ...HEADERS, authorization: `Bearer ${o.server.tokens[agent]}` },
      body,
    });
  const rpc = async (tool: string, args: unknown, id: number) => {
    const res = await post(
      JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: args } }),
    );
    const answer = answerOf(res.headers.get('content-type') ?? '', await res.text(), id);
    return resultSchema.parse(answer).result.structuredContent as z.output<typeof envelopeSchema>;
  };

  for (const [i, plan] of plans.entries()) {
    if (o.only !== undefined && !o.only.includes(i)) continue;
    const tool = tools[plan.tool % tools.length];
    if (tool === undefined) continue;
    const name = tool.def.name;
    const schema = inputSchemaOf(tool);
    // Mostly the world's objects; sometimes ids that name nothing.
    const fill = plan.pick2 % 5 === 0 ? {} : ids;
    const base = sampleArgs(tool, {}, { ...fill, wait_ms: 0, reason: 'fuzz', case_number: `ערר F-${i}/25` });
    const args = mutate(schema, base, plan);
    const request = requestText(i, name, args, plan.progress);
    report.calls++;
    report.mutations[plan.mutation] = (report.mutations[plan.mutation] ?? 0) + 1;
    const find = (problem: string, response: string) =>
      report.findings.push({
        call: i,
        tool: name,
        mutation: plan.mutation,
        problem,
        request: request.length > 400 ? `${request.slice(0, 400)}… (${request.length} chars)` : request,
        response: response.length > 400 ? `${response.slice(0, 400)}… (${response.length} chars)` : response,
      });
    let res: Response;
    try {
      res = await post(request);
    } catch (e) {
      find(`the request failed: ${String(e)}`, '');
      continue;
    }
    const text = await res.text();
    if (res.status >= 500) {
      report.http5xx++;
      find(`HTTP ${res.status}`, text);
    }
    let answer: unknown;
    try {
      answer = answerOf(res.headers.get('content-type') ?? '', text, i);
    } catch {
      report.nonEnvelope++;
      find('not JSON', text);
      continue;
    }
    const rpcError = rpcErrorSchema.safeParse(answer);
    if (rpcError.success) {
      report.outcomes.rpc_error++;
      const code = (rpcError.data.error as { data?: { code?: unknown } }).data?.code;
      if (code === 'internal' || rpcError.data.error.code === -32603) {
        report.internal++;
        find('a JSON-RPC internal error', text);
      }
      continue;
    }
    const result = resultSchema.safeParse(answer);
    const envelope = result.success ? envelopeSchema.safeParse(result.data.result.structuredContent) : null;
    if (!result.success || envelope === null || !envelope.success) {
      report.nonEnvelope++;
      find('neither a JSON-RPC error nor a result carrying an envelope', text);
      continue;
    }
    const env = envelope.data;
    const mirrored = result.data.result.content[0]?.text;
    if (
      mirrored !== JSON.stringify(result.data.result.structuredContent) ||
      result.data.result.isError !== !env.ok
    ) {
      report.nonEnvelope++;
      find('the text block or isError does not mirror the envelope', text);
    }
    report.outcomes[env.status]++;
    if (!env.ok) {
      report.codes[env.error.code] = (report.codes[env.error.code] ?? 0) + 1;
      if (env.error.code === 'internal') {
        report.internal++;
        find('internal', text);
      }
      continue;
    }
    // Stored strings read back byte for byte, through the tools that read them.
    const sent =
      typeof args === 'object' && args !== null && !Array.isArray(args)
        ? (args as Record<string, unknown>)
        : {};
    const compare = (field: string, got: Record<string, unknown>) => {
      const value = sent[field];
      if (typeof value !== 'string' || !(field in got)) return;
      report.roundTrips.checked++;
      // Free text is stored without surrounding whitespace (docs/contract.md "Arguments"); nothing else changes.
      if (got[field] !== value && got[field] !== value.trim()) {
        report.roundTrips.mismatched++;
        const show = (v: unknown) => JSON.stringify(v).slice(0, 120);
        find(`${name} ${field} read back as ${show(got[field])}, sent ${show(value)}`, text);
      }
    };
    const data = env.data as { case?: { id?: string }; document?: { id?: string }; created?: boolean };
    if ((name === 'case_create' ? data.created === true : name === 'case_update') && data.case?.id) {
      const read = await rpc('case_get', { case_id: data.case.id }, 1_000_000 + i);
      const got = read.ok ? (read.data as { case: Record<string, unknown> }).case : {};
      for (const field of CASE_TEXT) compare(field, got);
    }
    if (name === 'document_update' && data.document?.id) {
      const read = await rpc('document_text_get', { document_id: data.document.id }, 1_000_000 + i);
      if (read.ok) compare('title', read.data as Record<string, unknown>);
    }
  }

  // Still answering: a listing and a read.
  try {
    const list = await post(JSON.stringify({ jsonrpc: '2.0', id: -1, method: 'tools/list', params: {} }));
    const env = await rpc('case_list', {}, -2);
    report.alive = list.status === 200 && env.ok;
  } catch {
    report.alive = false;
  }
  report.ms = Date.now() - started;
  return report;
}

/** The figures, one block of lines for a person. */
export function formatReport(r: FuzzReport): string {
  const sorted = (m: Record<string, number>) =>
    Object.entries(m)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  return [
    `fuzz: ${r.calls} calls over ${r.tools} tools, seed ${r.seed}, ${(r.ms / 1000).toFixed(1)} s`,
    `  outcomes: ok ${r.outcomes.ok}, empty ${r.outcomes.empty}, error ${r.outcomes.error}, JSON-RPC error ${r.outcomes.rpc_error}`,
    `  error codes: ${sorted(r.codes)}`,
    `  mutations: ${sorted(r.mutations)}`,
    `  HTTP 5xx ${r.http5xx}, internal ${r.internal}, not an envelope ${r.nonEnvelope}, still answering ${r.alive ? 'yes' : 'NO'}`,
    `  stored strings read back: ${r.roundTrips.checked - r.roundTrips.mismatched}/${r.roundTrips.checked} byte for byte`,
    ...r.findings
      .slice(0, 20)
      .map(
        (f) =>
          `  #${f.call} ${f.tool} (${f.mutation}): ${f.problem}\n    → ${f.request}\n    ← ${f.response}`,
      ),
  ].join('\n');
}
