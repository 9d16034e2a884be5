// The idempotent write of every tool and store that inserts under a natural key: a retry or a racing
// duplicate ends with the row already stored under that key (docs/contract.md "Retries").
import { one } from './errors.ts';

/**
 * The row left by a write that tolerates its key already being taken (on conflict do nothing, or an upsert
 * that skips an unchanged row): the row the write returned, so this call wrote it, else the row already
 * stored under that key (`existing`). A retry or a racing duplicate ends with the same row, written: false.
 */
export async function writtenOrExisting<R>(
  write: PromiseLike<R[]>,
  existing: () => PromiseLike<R[]>,
  what: string,
): Promise<{ row: R; written: boolean }> {
  const [returned] = await write;
  if (returned !== undefined) return { row: returned, written: true };
  return { row: one(await existing(), `${what} (already stored)`), written: false };
}
