// npm start on the embedded database clears the in-flight locks a killed process left (entry/node.ts): the
// retry of a call that was running then runs at once instead of answering in_progress until the lock lapses.
// Finished results stay, so a retry of a finished call is still a replay.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { acquireIdempotency, IN_FLIGHT_PREFIX } from '../../src/contract/idempotency.ts';
import { createPostgresKv, deleteKvValuesStartingWith } from '../../src/kv/postgres.ts';
import { createTestDb, type TestDb } from '../harness/databases.ts';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb('pglite');
});
afterAll(async () => db?.close());

it('deletes in-flight locks only: the orphaned call runs again, a finished one replays', async () => {
  const kv = createPostgresKv(db.db);
  const scope = (key: string) => ({ agent: 'analyst', tool: 'case_update', key, args: { key } });
  const finished = await acquireIdempotency(kv, scope('done'));
  await finished.settle({ ok: true, status: 'ok', data: { n: 1 }, message: 'done' });
  await acquireIdempotency(kv, scope('orphan')); // never settled: its process was killed
  await expect(acquireIdempotency(kv, scope('orphan'))).rejects.toMatchObject({ code: 'in_progress' });

  expect(await deleteKvValuesStartingWith(db.db, IN_FLIGHT_PREFIX)).toBe(1);

  const retried = await acquireIdempotency(kv, scope('orphan'));
  expect(retried.replay).toBeUndefined();
  const replayed = await acquireIdempotency(kv, scope('done'));
  expect(replayed.replay).toMatchObject({ ok: true, replayed: true });
});
