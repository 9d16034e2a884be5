// Fixture tools shared by suites that need to hold a call open (to observe in_progress) and count runs.
import * as z from 'zod';
import { defineTool } from '../../src/contract/define.ts';
import { deferred } from './server.ts';

/** A mutation that blocks until `release()`; `reset()` arms it again for the next test. */
export function latchTool() {
  let latch = deferred();
  let entered = deferred();
  let runs = 0;
  const tool = defineTool({
    name: 'probe_latch_run',
    description: 'Test fixture: a mutation that blocks until the test releases it, to observe in_progress.',
    input: { key: z.string().max(50).describe('The idempotency key') },
    output: z.object({ key: z.string(), run: z.int() }),
    mutates: 'write',
    idempotencyKey: { describe: 'key', of: (input) => input.key },
    async run({ input }) {
      runs += 1;
      entered.resolve();
      await latch.promise;
      return { key: input.key, run: runs };
    },
  });
  return {
    tool,
    /** Resolves once a call is inside the tool. */
    entered: () => entered.promise,
    release: () => latch.resolve(),
    runs: () => runs,
    reset() {
      latch = deferred();
      entered = deferred();
      runs = 0;
    },
  };
}
