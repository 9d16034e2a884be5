// npm start's start-up line: each phase is the time since the previous mark, the first ones Node's bootstrap
// and the loading of the entry's modules, and the total is the last mark (a clock is passed; nothing is timed).
// Then the line as `npm start` prints it, on a fresh data directory and again on the same one.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { startupTiming } from '../../src/startup_timing.ts';
import { firstStartTokens, spawnServer } from '../harness/spawned.ts';

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

describe('npm start prints the line on every start', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  // Every phase of entry/node.ts, in order, each with its milliseconds; the total is their sum (±1 per rounding).
  const phases = [
    'node',
    'modules',
    'lock',
    'database',
    'migrations',
    'kv',
    'app',
    'recovery',
    'tokens',
    'listen',
  ];
  const line = (output: string) => {
    const m = /^startup: listening after (\d+) ms \((.*)\)$/m.exec(output);
    expect(m, output).not.toBeNull();
    const parts = (m?.[2] ?? '').split(', ').map((p) => p.split(' '));
    expect(parts.map(([name]) => name)).toEqual(phases);
    const sum = parts.reduce((s, [, ms]) => s + Number(ms), 0);
    expect(Math.abs(sum - Number(m?.[1]))).toBeLessThanOrEqual(phases.length);
  };

  it('on a fresh data directory and again on the same one, where the first answer is a real one', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'chambers-startup-line-'));
    dirs.push(dataDir);
    const first = await spawnServer({ dataDir, entry: 'entry/start.mjs' });
    const { ceo } = firstStartTokens(first.output());
    line(first.output());
    await first.stop();

    const second = await spawnServer({ dataDir, entry: 'entry/start.mjs' });
    try {
      line(second.output());
      expect(second.output()).not.toContain('First start');
      const listed = await second.call(ceo as string, 'case_list', { limit: 1 });
      expect(listed.ok).toBe(true);
    } finally {
      await second.stop();
    }
  }, 180_000);
});
