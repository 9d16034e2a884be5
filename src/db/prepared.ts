// A raw statement run as a named prepared statement where the connection outlives the request (node-postgres's
// pool): PostgreSQL then parses and analyses it once per connection, and after five runs may keep one plan for
// it. For the ranked search that was about 1.5 ms of a 10 ms query. Elsewhere (PGlite, Neon's per-request
// connections) the statement runs as any other: a name would be parsed again on the next connection anyway.

import { PgDialect } from 'drizzle-orm/pg-core';
import { sha256Hex } from '../contract/hash.ts';
import { entityKind, type SQL } from './orm.ts';
import { type DbOrTx, rowsOf } from './types.ts';

const dialect = new PgDialect();

/**
 * A statement's name from its text (a prefix of its SHA-256): the same text always gets the same name, and
 * node-postgres refuses (rather than runs) a name already prepared for another text.
 */
export function statementName(text: string): string {
  return `chambers_${sha256Hex(text).slice(0, 32)}`;
}

/**
 * Runs `query` and returns its rows: as a named prepared statement on node-postgres, as `db.execute` otherwise.
 * Meant for statements of few distinct shapes (values as parameters), since each shape stays prepared on each
 * pooled connection until the pool closes it.
 */
export async function executePrepared<R>(db: DbOrTx, query: SQL): Promise<R[]> {
  const session = db._.session;
  const kind = (session.constructor as unknown as { [entityKind]?: string })[entityKind];
  if (kind !== 'NodePgSession') return rowsOf<R>(await db.execute(query));
  const built = dialect.sqlToQuery(query);
  return rowsOf<R>(await session.prepareQuery(built, undefined, statementName(built.sql), false).execute());
}
