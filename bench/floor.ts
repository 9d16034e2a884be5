/**
 * The database-bound floor (part of `npm run bench`; alone: `node bench/floor.ts`): a realistic read,
 * `case_get` (its five indexed reads), through /mcp (both eras) and /v1, side by side with a raw Hono route that
 * parses the same request, runs the same query (loadLiveCase) on the same pool and answers the same bytes.
 * On the local PostgreSQL when reachable (a scratch database, created and dropped; the pool is what a Node
 * server uses), else on PGlite in memory. A ratio near 1 says a tool call costs little more than its query.
 */
import { pathToFileURL } from 'node:url';
import { Hono } from 'hono';
import { readCaseFile } from '../src/cases/case_file.ts';
import { migrateDb } from '../src/db/migrate.ts';
import { openPglite } from '../src/db/pglite.ts';
import { listen, startApp } from './app.ts';
import { type Form, modernHeaders, modernMeta, send } from './forms.ts';
import { scratchPostgres } from './scratch.ts';
import { load, median, ROUNDS, SECONDS } from './side_by_side.ts';

type Key = 'rawMcp' | 'mcp2025' | 'mcp2026' | 'mcp2025off' | 'rawV1' | 'v1';

export async function runFloorBench(): Promise<Record<string, string>> {
  const scratch = await scratchPostgres();
  const handle = scratch?.handle ?? (await openPglite());
  if (scratch === null) await migrateDb(handle);
  const where = scratch === null ? 'PGlite in memory' : 'the local PostgreSQL (node-postgres pool)';
  const bench = await startApp(handle);
  // The same app with AUTH_CACHE=off (Workers, npm start on DATABASE_URL): a token lookup on every call.
  const uncached = await startApp(handle, { AUTH_CACHE: 'off' });
  const v1Headers = { authorization: `Bearer ${bench.token}`, 'content-type': 'application/json' };
  const created = await send(`${bench.chambers.url}/v1/tools/case_create`, {
    label: 'case_create',
    headers: v1Headers,
    body: JSON.stringify({ case_number: 'ערר 901/26', title: 'רצפת מסד הנתונים', appellant: 'פלוני' }),
  });
  const caseId = (JSON.parse(created.raw) as { data: { case: { id: string } } }).data.case.id;
  const args = { case_id: caseId };

  // The floor: the same request parsed, the same query on the same pool, the same bytes.
  const raw = new Hono();
  // Requests the load generator left in flight when it stopped; the pool is dropped only once they answered.
  let inFlight = 0;
  raw.use(async (_c, next) => {
    inFlight++;
    try {
      await next();
    } finally {
      inFlight--;
    }
  });
  const envelopeOf = async (id: string) => {
    const { data, message } = await readCaseFile(handle.db, id, new Date());
    return { ok: true, status: 'ok', data, message };
  };
  raw.post('/mcp', async (c) => {
    const body = (await c.req.json()) as { id: unknown; params: { arguments: { case_id: string } } };
    const envelope = await envelopeOf(body.params.arguments.case_id);
    const result = {
      content: [{ type: 'text', text: JSON.stringify(envelope) }],
      structuredContent: envelope,
      isError: false,
    };
    return c.body(JSON.stringify({ result, jsonrpc: '2.0', id: body.id }), 200, {
      'content-type': 'application/json',
    });
  });
  raw.post('/v1', async (c) =>
    c.json(await envelopeOf(((await c.req.json()) as { case_id: string }).case_id)),
  );
  const rawServer = await listen(raw.fetch);

  const legacy = {
    ...v1Headers,
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
  };
  const call = (meta?: object) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'case_get', arguments: args, ...(meta === undefined ? {} : { _meta: meta }) },
    });
  const cases: { key: Key; url: string; form: Form }[] = [
    {
      key: 'rawMcp',
      url: `${rawServer.url}/mcp`,
      form: { label: 'raw Hono route, same query and bytes as /mcp', headers: legacy, body: call() },
    },
    {
      key: 'mcp2025',
      url: bench.mcpUrl,
      form: { label: '/mcp case_get (2025-11-25)', headers: legacy, body: call() },
    },
    {
      key: 'mcp2026',
      url: bench.mcpUrl,
      form: {
        label: '/mcp case_get (2026-07-28)',
        headers: modernHeaders(bench.token, 'tools/call', 'case_get'),
        body: call(modernMeta),
      },
    },
    {
      key: 'mcp2025off',
      url: uncached.mcpUrl,
      form: {
        label: '/mcp case_get (2025-11-25), AUTH_CACHE=off',
        headers: { ...legacy, authorization: `Bearer ${uncached.token}` },
        body: call(),
      },
    },
    {
      key: 'rawV1',
      url: `${rawServer.url}/v1`,
      form: {
        label: 'raw Hono route, same query and bytes as /v1',
        headers: v1Headers,
        body: JSON.stringify(args),
      },
    },
    {
      key: 'v1',
      url: `${bench.chambers.url}/v1/tools/case_get`,
      form: { label: '/v1/tools/case_get', headers: v1Headers, body: JSON.stringify(args) },
    },
  ];
  // The floor answers exactly what the app answers (the 2026 era adds its result metadata).
  const answers = new Map<Key, string>();
  for (const c of cases) {
    const r = await send(c.url, c.form);
    if (r.status !== 200 || !r.raw.includes(caseId)) throw new Error(`${c.form.label}: ${r.status} ${r.raw}`);
    answers.set(c.key, r.raw);
  }
  if (answers.get('rawMcp') !== answers.get('mcp2025') || answers.get('rawV1') !== answers.get('v1'))
    throw new Error('the raw floor does not answer the same bytes as the app');

  const results = new Map<Key, number[]>(cases.map((c) => [c.key, []]));
  const measure = async (c: (typeof cases)[number], warmup: number) => {
    const r = await load(c.url, c.form, SECONDS, warmup);
    if (r.errors > 0 || r.non2xx > 0)
      throw new Error(`${c.form.label}: ${r.errors} errors, ${r.non2xx} non-2xx`);
    results.get(c.key)?.push(r.requests / r.seconds);
  };
  for (let round = 0; round < ROUNDS; round++) for (const c of cases) await measure(c, round === 0 ? 1 : 0.5);
  for (const c of cases.filter((x) => x.key.startsWith('raw'))) await measure(c, 0.5);

  const ratio = (key: Key, floor: Key) => {
    const f = results.get(floor) ?? [];
    return median(
      (results.get(key) ?? []).map((rps, i) => rps / (((f[i] ?? Number.NaN) + (f[i + 1] ?? Number.NaN)) / 2)),
    );
  };
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(`\nDB-bound floor: case_get on ${where}, ${ROUNDS} rounds × ${SECONDS} s, 10 connections:\n`);
  for (const c of cases) {
    const floor: Key = c.key === 'v1' ? 'rawV1' : 'rawMcp';
    const r = c.key.startsWith('raw') ? '1' : ratio(c.key, floor).toFixed(2);
    console.log(
      `  ${c.form.label.padEnd(48)} ${mean(results.get(c.key) ?? [])
        .toFixed(0)
        .padStart(6)} req/s  × floor ${r.padStart(5)}`,
    );
  }
  for (let waited = 0; inFlight > 0 && waited < 5000; waited += 10)
    await new Promise((r) => setTimeout(r, 10));
  await Promise.all([bench.chambers.close(), uncached.chambers.close(), rawServer.close()]);
  if (scratch === null) await handle.close();
  else await scratch.drop();
  return {
    db_floor_mcp_ratio: ratio('mcp2025', 'rawMcp').toFixed(2),
    db_floor_mcp2026_ratio: ratio('mcp2026', 'rawMcp').toFixed(2),
    db_floor_mcp_uncached_ratio: ratio('mcp2025off', 'rawMcp').toFixed(2),
    db_floor_v1_ratio: ratio('v1', 'rawV1').toFixed(2),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const pairs = await runFloorBench();
  console.log(
    `bench: ${Object.entries(pairs)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
}
