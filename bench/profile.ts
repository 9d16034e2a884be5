// A CPU profile of the main thread (the servers) while `work` runs, summarised by area (package, Node
// subsystem, our directories) and by function; BENCH_CPUPROFILE=path also keeps the raw profile.
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

type CallFrame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

export interface ProfileSummary {
  /** Share of wall time the thread was busy, 0..100. */
  busyPercent: number;
  /** [label, % of busy time], largest first. */
  selfByArea: (readonly [string, number])[];
  onStackByArea: (readonly [string, number])[];
  selfByFunction: (readonly [string, number])[];
}

export async function profileWhile<T>(
  work: () => Promise<T>,
  root: string,
): Promise<{ result: T; summary: ProfileSummary }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  const result = await work();
  const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
  session.disconnect();
  // For chrome://inspect or speedscope.
  if (process.env.BENCH_CPUPROFILE) await writeFile(process.env.BENCH_CPUPROFILE, JSON.stringify(profile));
  return { result, summary: summarise(profile, root) };
}

function summarise(profile: Profile, root: string): ProfileSummary {
  const area = (frame: CallFrame): string => {
    const { url, functionName } = frame;
    if (url === '')
      return functionName.startsWith('(') ? functionName : '(native: syscalls, JSON, crypto...)';
    if (url.startsWith('node:')) {
      return `node:${url
        .replace(/^node:(internal\/)?/, '')
        .split('/')[0]
        ?.replace(/\.js$/, '')}`;
    }
    const pkg = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
    if (pkg !== undefined) return pkg;
    const local = url.replace(`file://${root}`, '');
    if (local !== url) return `chambers ${local.split('/').slice(0, -1).join('/') || local}`;
    return url;
  };
  const label = (frame: CallFrame) => {
    const where =
      frame.url === ''
        ? ''
        : ` ${frame.url.replace(/^.*node_modules\//, '').replace(`file://${root}`, '')}:${frame.lineNumber + 1}`;
    return `${frame.functionName || '(anonymous)'}${where}`;
  };
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  const selfByArea = new Map<string, number>();
  const onStackByArea = new Map<string, number>();
  const selfByFunction = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  let busy = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const frame = nodes.get(id)?.callFrame;
    const dt = profile.timeDeltas[i] ?? 0;
    // Idle, and the profiler's own Profiler.stop call, are not the server's work.
    if (frame === undefined || frame.url === 'node:inspector') return;
    if (frame.functionName === '(idle)') {
      idle += dt;
      return;
    }
    busy += dt;
    add(selfByArea, area(frame), dt);
    add(selfByFunction, label(frame), dt);
    const seen = new Set<string>();
    for (let x: number | undefined = id; x !== undefined; x = parentOf.get(x)) {
      const f = nodes.get(x)?.callFrame;
      if (f === undefined || f.functionName === '(root)') continue;
      const a = area(f);
      // The microtask runner and natives sit under nearly everything: as inclusive areas they say nothing.
      if (a === 'node:process' || a.startsWith('(')) continue;
      if (!seen.has(a)) {
        seen.add(a);
        add(onStackByArea, a, dt);
      }
    }
  });
  const top = (m: Map<string, number>) =>
    [...m.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, (100 * v) / busy] as const);
  return {
    busyPercent: (100 * busy) / (busy + idle),
    selfByArea: top(selfByArea),
    onStackByArea: top(onStackByArea),
    selfByFunction: top(selfByFunction),
  };
}
