// `npm run fuzz -- --calls 10000 --seed 1`: the whole fuzz run (fuzz.ts) on PGlite, in process, with its
// figures; `--only 12,40` replays those calls of the same seed. Exits 1 on any finding.
import { parseArgs } from 'node:util';
import { tools } from '../../entry/registries.ts';
import { startTestServer } from '../harness/server.ts';
import { registryOf } from '../harness/tool_args.ts';
import { makeWorld, walkerAgents } from '../harness/world.ts';
import { formatReport, fuzz } from './fuzz.ts';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '20261201' },
    only: { type: 'string' },
  },
});
const calls = Number(values.calls);
const seed = Number(values.seed);
if (!Number.isInteger(calls) || calls < 1 || !Number.isInteger(seed)) {
  console.error('usage: npm run fuzz -- [--calls N] [--seed N] [--only i,j]');
  process.exit(2);
}
const server = await startTestServer({ agents: await walkerAgents() });
try {
  const world = await makeWorld(server);
  const report = await fuzz({
    server,
    registry: registryOf(tools, 'ack'),
    world,
    calls,
    seed,
    ...(values.only === undefined ? {} : { only: values.only.split(',').map(Number) }),
  });
  console.log(formatReport(report));
  process.exitCode = report.findings.length === 0 && report.alive ? 0 : 1;
} finally {
  await server.close();
}
