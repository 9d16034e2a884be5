// The fuzzer's slice in `npm test`: 1,000 calls over every tool through /mcp on PGlite, a fixed seed (a
// failure names the calls to replay: `npm run fuzz -- --calls 1000 --seed 20261201 --only <n>`). The whole
// run is `npm run fuzz -- --calls 10000 --seed N` (test/fuzz/run.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '../../entry/registries.ts';
import { formatReport, fuzz } from '../fuzz/fuzz.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { registryOf } from '../harness/tool_args.ts';
import { makeWorld, type World, walkerAgents } from '../harness/world.ts';

const SEED = 20261201;
const CALLS = 1000;

describe('every tool fuzzed: a 1,000-call slice', () => {
  let s: TestServer;
  let w: World;
  beforeAll(async () => {
    s = await startTestServer({ agents: await walkerAgents() });
    w = await makeWorld(s);
  }, 120_000);
  afterAll(async () => s?.close());

  it('answers every call with an envelope or a JSON-RPC error, never 5xx or internal; stored text reads back', async () => {
    const report = await fuzz({
      server: s,
      registry: registryOf(tools, 'ack'),
      world: w,
      calls: CALLS,
      seed: SEED,
    });
    const text = formatReport(report);
    expect(report.findings, text).toEqual([]);
    expect(report).toMatchObject({ calls: CALLS, http5xx: 0, internal: 0, nonEnvelope: 0, alive: true });
    expect(report.roundTrips.checked, text).toBeGreaterThan(0);
    // The slice reaches past the argument checks: successes and tool-level refusals, not only invalid_args.
    expect(report.outcomes.ok + report.outcomes.empty, text).toBeGreaterThan(50);
    expect(Object.keys(report.codes).length, text).toBeGreaterThan(4);
  }, 120_000);
});
