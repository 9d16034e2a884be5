// npm start's start-up line: each phase is the time since the previous mark, the first ones Node's bootstrap
// and the loading of the entry's modules, and the total is the last mark (a clock is passed; nothing is timed).
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { startupTiming } from '../../src/startup_timing.ts';

describe('the start-up timing line', () => {
  it('names every phase with its own duration and the total to listening', () => {
    const booted = performance.nodeTiming.bootstrapComplete;
    const times = [booted + 300, booted + 310, booted + 700, booted + 705];
    const clock = () => times.shift() ?? Number.NaN;
    const timing = startupTiming(clock);
    timing.mark('lock');
    timing.mark('stores');
    timing.mark('listen');
    expect(timing.line()).toBe(
      `startup: listening after ${(booted + 705).toFixed(0)} ms (node ${booted.toFixed(0)}, modules 300, lock 10, stores 390, listen 5)`,
    );
  });
});
