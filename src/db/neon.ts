import { Client, type ClientConfig, Pool, type WebSocketConstructor } from '@neondatabase/serverless';
import { drizzle } from 'drizzle-orm/neon-serverless';
import * as schema from './schema/index.ts';
import { DB_TIMEOUTS, type DbTimeouts, guardPoolClient, poolTimeouts } from './timeouts.ts';
import type { DbHandle } from './types.ts';

export interface NeonOptions {
  /** Called with each SQL statement drizzle sends (counts round trips in benchmarks). */
  onQuery?: (sql: string) => void;
  /**
   * A local WebSocket→TCP proxy ("127.0.0.1:PORT") for development against a plain PostgreSQL:
   * plain `ws:`, no TLS inside, no pipelined password (local servers use trust or SCRAM auth).
   */
  wsProxy?: string;
  /** A WebSocket implementation where there is no global one (tests pass `ws`); Workers have their own. */
  webSocketConstructor?: WebSocketConstructor;
  /** Pool size; a per-request pool on Workers rarely needs more than a few. */
  max?: number;
  /** Shorter bounds than DB_TIMEOUTS (tests of a slow server). */
  timeouts?: Partial<DbTimeouts>;
}

/** A Neon (WebSocket) handle; `pool` is exposed for the migrator and for tests. */
export interface NeonHandle extends DbHandle {
  kind: 'neon';
  pool: Pool;
}

/**
 * Opens a Neon serverless Pool over WebSockets (interactive transactions work, unlike HTTP mode).
 * On Workers make one per request and `close()` it when the response has been fully sent.
 */
export function openNeon(url: string, options: NeonOptions = {}): NeonHandle {
  const { wsProxy, webSocketConstructor, onQuery } = options;
  // Settings go on each client's own config rather than the global `neonConfig`, so a local-proxy pool
  // and a production pool can coexist in one process (tests) and nothing leaks between requests.
  class ConfiguredClient extends Client {
    constructor(config?: string | ClientConfig) {
      super(config);
      const cfg = this.neonConfig;
      if (webSocketConstructor) cfg.webSocketConstructor = webSocketConstructor;
      if (wsProxy !== undefined) {
        cfg.wsProxy = (host, port) => `${wsProxy}/v1?address=${host}:${port}`;
        cfg.useSecureWebSocket = false;
        cfg.pipelineTLS = false;
        cfg.pipelineConnect = false;
      }
    }
  }
  const pool = new Pool({
    connectionString: url,
    ...(options.max === undefined ? {} : { max: options.max }),
    ...poolTimeouts({ ...DB_TIMEOUTS, ...options.timeouts }),
  });
  pool.on('connect', guardPoolClient);
  // Neon's Pool assigns its own Client class in its constructor (ignoring `options.Client`), so swap it after.
  pool.Client = ConfiguredClient;
  let closed = false;
  // Without a listener an idle connection's error event would be thrown; the pool evicts the client itself.
  pool.on('error', (err: Error) => {
    if (!closed) console.warn(`[db] idle neon connection failed: ${err.message}`);
  });
  const db = drizzle({
    client: pool,
    schema,
    ...(onQuery ? { logger: { logQuery: (sql: string) => onQuery(sql) } } : {}),
  });
  return {
    db,
    kind: 'neon',
    pool,
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
