// Round trips per call of each case tool (sequential, auth already cached for this token): the database
// statements and KV calls each tools/call makes, counted by the app's counting stores.
import { mintToken } from '../src/auth/tokens.ts';
import { type BenchApp, counter, NOOP } from './app.ts';
import { type Form, modernHeaders, modernMeta, send } from './forms.ts';

export interface TripRow {
  tool: string;
  outcome: string;
  db: string[];
  kv: string[];
}

/** "insert cases", "select agent_tokens", "begin"... from a drizzle statement. */
function statementLabel(sql: string): string {
  const s = sql.trim().toLowerCase();
  const verb = /^(\w+)/.exec(s)?.[1] ?? '?';
  const table =
    /^(?:insert into|update|delete from)\s+"?(\w+)"?/.exec(s)?.[1] ?? /\bfrom\s+"?(\w+)"?/.exec(s)?.[1] ?? '';
  return table === '' ? verb : `${verb} ${table}`;
}

async function callCounted(mcpUrl: string, headerToken: string, name: string, args: Record<string, unknown>) {
  const form: Form = {
    label: name,
    headers: modernHeaders(headerToken, 'tools/call', name),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args, _meta: modernMeta },
    }),
  };
  counter.db = [];
  counter.kv = [];
  counter.on = true;
  const r = await send(mcpUrl, form);
  counter.on = false;
  const envelope = r.reply?.result?.structuredContent as
    | { ok: boolean; replayed?: boolean; data?: Record<string, unknown>; error?: { code: string } }
    | undefined;
  if (envelope === undefined) throw new Error(`${name}: no envelope in ${r.raw.slice(0, 300)}`);
  return { envelope, db: [...counter.db], kv: [...counter.kv] };
}

/** Runs the case tools' life cycle once, then the no-op with a fresh token, counting each call. */
export async function measureTrips(bench: BenchApp): Promise<TripRow[]> {
  const call = (name: string, args: Record<string, unknown>, headerToken = bench.token) =>
    callCounted(bench.mcpUrl, headerToken, name, args);
  const trips: TripRow[] = [];
  const record = (tool: string, r: Awaited<ReturnType<typeof callCounted>>) => {
    const outcome = r.envelope.ok
      ? r.envelope.replayed
        ? 'replayed'
        : 'ok'
      : `error ${r.envelope.error?.code}`;
    trips.push({ tool, outcome, db: r.db.map(statementLabel), kv: r.kv });
    return r;
  };

  const createArgs = { case_number: 'ערר 900/26', title: 'מדידת סבבים' };
  const created = record('case_create (new)', await call('case_create', createArgs));
  const caseId = String((created.envelope.data?.case as { id?: unknown } | undefined)?.id);
  record('case_create (repeat)', await call('case_create', createArgs));
  record('case_list', await call('case_list', {}));
  record('case_get', await call('case_get', { case_id: caseId }));
  record('case_update', await call('case_update', { case_id: caseId, title: 'מדידת סבבים 2' }));
  record('case_final_text_get', await call('case_final_text_get', { case_id: caseId }));
  record('case_delete', await call('case_delete', { case_id: caseId, owner_ack: true, reason: 'bench' }));
  // The auth lookup is cached per token for 60 s; a token's first call pays it once.
  const freshToken = await mintToken(bench.db.db, 'ceo', 'bench-cold');
  const cold = await call(NOOP, {}, freshToken);
  trips.push({
    tool: `${NOOP} (token's first call)`,
    outcome: cold.envelope.ok ? 'ok' : 'error',
    db: cold.db.map(statementLabel),
    kv: cold.kv,
  });
  const warm = await call(NOOP, {}, freshToken);
  trips.push({
    tool: `${NOOP} (cached token)`,
    outcome: warm.envelope.ok ? 'ok' : 'error',
    db: warm.db.map(statementLabel),
    kv: warm.kv,
  });
  return trips;
}
