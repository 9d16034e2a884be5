// Runs the queued background work to the end through extraction_run (as the ceo), the way the worker would:
// a document's text, then the follow-ups its text queued.
import type { TestServer } from './server.ts';
import { expectOk } from './server.ts';

export async function drainAll(s: TestServer): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const report = expectOk<{ claimed: number }>(await s.call('ceo', 'extraction_run', { max_jobs: 50 }));
    if (report.claimed === 0) return;
  }
  throw new Error('the queue did not drain in 20 rounds');
}
