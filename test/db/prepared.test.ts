// executePrepared (src/db/prepared.ts): the same rows as db.execute on both databases; on node-postgres a named
// statement, prepared once per connection and reused (its plan cached), in and out of a transaction.

import { PgDialect } from 'drizzle-orm/pg-core';
import { expect, it } from 'vitest';
import { sql } from '../../src/db/orm.ts';
import { executePrepared, statementName } from '../../src/db/prepared.ts';
import { rowsOf } from '../../src/db/types.ts';
import { forEachDb } from '../harness/databases.ts';

const dialect = new PgDialect();

const query = (n: number) =>
  sql`select g as n, ${`word ${n}`}::text as label from generate_series(1, ${n}::int) g order by g`;

forEachDb('db: prepared statements', (getDb, kind) => {
  it('answers the rows db.execute answers, for every value, in and out of a transaction', async () => {
    const { db } = getDb();
    for (const n of [1, 3, 7]) {
      const expected = rowsOf(await db.execute(query(n)));
      expect(await executePrepared(db, query(n))).toEqual(expected);
      expect(await db.transaction((tx) => executePrepared(tx, query(n)))).toEqual(expected);
    }
  });

  it(
    kind === 'postgres'
      ? 'keeps one named statement per text on the connection, planned again only as PostgreSQL decides'
      : 'prepares nothing on the embedded database (one session: no name to keep)',
    async () => {
      const { db } = getDb();
      // A text of this test alone, on one connection for the whole check: the counters are the runs below.
      const own = (i: number) => sql`select ${i}::int + 1 as next`;
      await db.transaction(async (tx) => {
        for (let i = 1; i <= 8; i++) expect(await executePrepared(tx, own(i))).toEqual([{ next: i + 1 }]);
        const name = statementName(dialect.sqlToQuery(own(1)).sql);
        const prepared = rowsOf<{ name: string; runs: string }>(
          await tx.execute(
            sql`select name, (generic_plans + custom_plans)::text as runs from pg_prepared_statements
              where name = ${name}`,
          ),
        );
        expect(prepared).toEqual(kind === 'postgres' ? [{ name, runs: '8' }] : []);
      });
    },
  );
});

it('names a statement by its text: the same text the same name, another text another name', () => {
  expect(statementName('select 1')).toBe(statementName('select 1'));
  expect(statementName('select 1')).not.toBe(statementName('select 2'));
  expect(statementName('select 1')).toMatch(/^chambers_[0-9a-f]{32}$/);
});
