// The bounds on every call to a backing store (docs/operations.md lists them): a store that is down, or
// answers slower than these, turns into `dependency_unavailable` within a known time instead of a hung call.

export interface DbTimeouts {
  /** Opening a connection (TCP, TLS, authentication): pg's connectionTimeoutMillis. */
  connectMs: number;
  /** One statement on the server: PostgreSQL's statement_timeout cancels it there. */
  statementMs: number;
  /**
   * One statement as the client waits for it (pg's query_timeout): the backstop when the server or the
   * network is silent. Longer than statementMs, so a slow statement is cancelled by the server first.
   */
  queryMs: number;
  /**
   * A transaction left open with no statement running (idle_in_transaction_session_timeout): the server ends
   * the session and releases its locks when the client vanished without closing the connection.
   */
  idleInTransactionMs: number;
}

export const DB_TIMEOUTS: DbTimeouts = {
  connectMs: 5_000,
  statementMs: 30_000,
  queryMs: 35_000,
  idleInTransactionMs: 60_000,
};

/** One key-value request (Upstash REST): aborted past this; the client does not retry (src/kv/upstash.ts). */
export const KV_TIMEOUT_MS = 5_000;

/** The pool settings of node-postgres and Neon's Pool (the same names) for these bounds. */
export function poolTimeouts(t: DbTimeouts) {
  return {
    connectionTimeoutMillis: t.connectMs,
    statement_timeout: t.statementMs,
    query_timeout: t.queryMs,
    idle_in_transaction_session_timeout: t.idleInTransactionMs,
  };
}

/**
 * A connection whose statement timed out on the client still has that statement in flight: its next user
 * would queue behind it (a transaction's ROLLBACK included), and a pool client released without an error
 * (drizzle's transactions) would be handed out again, stuck. On a read timeout the connection's socket is
 * closed, so the pool drops it (no longer queryable) and the server rolls back what it held. Installed on
 * each new pool client (the pool's 'connect' event); node-postgres and Neon's port of it share these names.
 */
export function guardPoolClient(client: object): void {
  const c = client as {
    query: (...args: unknown[]) => unknown;
    on(event: 'error', fn: (e: Error) => void): unknown;
    connection?: { stream?: { destroy?: () => void } };
  };
  // A client in use whose connection dies (the server restarting, pg_terminate_backend, a network cut) emits
  // 'error' besides failing its query; the pool listens only while the client is idle, and an 'error' with
  // no listener would end the process. The failed query already reports it; the pool drops the client.
  c.on('error', () => {});
  const drop = (error: unknown) => {
    if (error instanceof Error && error.message === 'Query read timeout') c.connection?.stream?.destroy?.();
  };
  const query = c.query.bind(c);
  c.query = (...args: unknown[]) => {
    const last = args.at(-1);
    if (typeof last === 'function') {
      args[args.length - 1] = (error: unknown, ...rest: unknown[]) => {
        drop(error);
        return (last as (...a: unknown[]) => unknown)(error, ...rest);
      };
    }
    const result = query(...args);
    if (result instanceof Promise) result.catch(drop);
    return result;
  };
}
