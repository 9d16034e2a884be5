// A scratch database for a benchmark: the test harness's (a copy of the migrated template on the local
// PostgreSQL, dropped when done), or null when no PostgreSQL answers.
import type { DbHandle } from '../src/db/types.ts';
import { createTestDb } from '../test/harness/databases.ts';
import { services } from '../test/harness/services.ts';

export async function scratchPostgres(): Promise<{ handle: DbHandle; drop(): Promise<void> } | null> {
  if (!services.postgres) return null;
  const handle = await createTestDb('postgres');
  return { handle, drop: () => handle.close() };
}
