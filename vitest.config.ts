import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global_redis.ts'],
    testTimeout: 30000,
    hookTimeout: 60000,
    pool: 'forks',
    // One module graph per worker instead of one per file: every suite imports the whole app (SDK, zod,
    // drizzle, PGlite, the document parsers), which cost more than the tests themselves. Suites share no
    // state through modules: each starts its own server over its own database (test/harness).
    isolate: false,
    // Vitest's default in run mode is one worker less than the CPUs: a single worker on a 2-CPU machine.
    // The suites spend much of their time waiting on PostgreSQL, Redis and child processes, so one worker
    // more than the CPUs keeps them busy (capped: each worker holds PGlite instances of its own).
    maxWorkers: Math.min(availableParallelism() + 1, 8),
  },
});
