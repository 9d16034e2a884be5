// withIndexReads (src/db/index_reads.ts): the read runs under the index-read settings on both databases (on
// node-postgres on connections that start with them, elsewhere in a transaction that sets them), and nothing
// else the database runs sees them.
import { expect, it } from 'vitest';
import { INDEX_READ_SETTINGS, withIndexReads } from '../../src/db/index_reads.ts';
import { sql } from '../../src/db/orm.ts';
import { type DbOrTx, rowsOf } from '../../src/db/types.ts';
import { forEachDb } from '../harness/databases.ts';

const settings = async (db: DbOrTx) =>
  rowsOf<{ enable_seqscan: string; max_parallel_workers_per_gather: string }>(
    await db.execute(
      sql`select current_setting('enable_seqscan') as enable_seqscan,
        current_setting('max_parallel_workers_per_gather') as max_parallel_workers_per_gather`,
    ),
  )[0];

forEachDb('db: index reads', (getDb, kind) => {
  it('runs the read under the index-read settings, and leaves every other statement under the defaults', async () => {
    const { db } = getDb();
    const before = await settings(db);
    expect(before?.enable_seqscan).toBe('on');
    const inside = await withIndexReads(db, (reader) => settings(reader));
    expect(inside).toEqual(INDEX_READ_SETTINGS);
    // Several at once (the node-postgres pool's connections all start with them).
    const many = await Promise.all(Array.from({ length: 6 }, () => withIndexReads(db, settings)));
    for (const s of many) expect(s).toEqual(INDEX_READ_SETTINGS);
    expect(await settings(db)).toEqual(before);
  });

  it(`plans a common word's lookup on the GIN index (${kind})`, async () => {
    const { db } = getDb();
    // Every row has the word: without the settings the planner would scan the table.
    await db.execute(sql`create temp table if not exists words (id int primary key, tsv tsvector)`);
    await db.execute(sql`create index if not exists words_tsv on words using gin (tsv)`);
    await db.execute(
      sql`insert into words select g, to_tsvector('simple', 'שומה מכרעת ' || g) from generate_series(1, 2000) g
        on conflict do nothing`,
    );
    await db.execute(sql`analyze words`);
    const plan = (reader: DbOrTx) =>
      reader.execute(sql`explain select id from words where tsv @@ to_tsquery('simple', 'שומה')`);
    // A temporary table lives in one session: on node-postgres read it through one transaction's connection.
    const text = await db.transaction(async (tx) => {
      const seq = rowsOf<{ 'QUERY PLAN': string }>(await plan(tx))
        .map((r) => r['QUERY PLAN'])
        .join('\n');
      expect(seq).toMatch(/Seq Scan on words/);
      return rowsOf<{ 'QUERY PLAN': string }>(await withIndexReads(tx, plan))
        .map((r) => r['QUERY PLAN'])
        .join('\n');
    });
    expect(text).toMatch(/Bitmap Index Scan on words_tsv/);
  });
});
