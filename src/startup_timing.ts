// The one start-up timing line of `npm start`: where the time to listening went, phase by phase, counted from
// the process's start (performance.now() is measured from it), Node's own bootstrap first.
import { performance } from 'node:perf_hooks';

export interface StartupTiming {
  /** Ends the phase that began at the previous mark (or at the first, "modules": the entry's imports). */
  mark(phase: string): void;
  /** `startup: listening after 812 ms (node 45, modules 310, stores 380, …)`. */
  line(): string;
}

export function startupTiming(now: () => number = () => performance.now()): StartupTiming {
  const booted = performance.nodeTiming.bootstrapComplete;
  const phases: [string, number][] = [['node', booted]];
  let last = booted;
  const mark = (phase: string) => {
    const t = now();
    phases.push([phase, t - last]);
    last = t;
  };
  // Everything before the entry's first statement ran is the loading of its modules.
  mark('modules');
  return {
    mark,
    line: () =>
      `startup: listening after ${last.toFixed(0)} ms (${phases.map(([p, ms]) => `${p} ${ms.toFixed(0)}`).join(', ')})`,
  };
}
