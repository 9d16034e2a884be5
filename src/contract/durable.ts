// The idempotent write of every tool and store that inserts under a natural key: a retry or a racing
// duplicate ends with the row already stored under that key (docs/contract.md "Retries").
import { one, ToolError } from './errors.ts';

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

/**
 * A natural key found already recorded: nothing to refuse when no detail differs; otherwise
 * `idempotency_key_reuse`, naming the details that differ and the stored row (`details[idField]`).
 */
export function refuseOtherDetails(
  what: string,
  stored: { idField: string; id: string },
  checks: readonly (readonly [field: string, differs: boolean])[],
  hint: string,
): void {
  const different = checks.filter(([, d]) => d).map(([f]) => f);
  if (different.length === 0) return;
  throw new ToolError(
    'idempotency_key_reuse',
    `This ${what} was already recorded with other details (${different.join(', ')})`,
    { details: { [stored.idField]: stored.id, different }, hint },
  );
}
