/**
 * A local stand-in for Upstash's REST API, backed by a real Redis through ioredis, so the real
 * `@upstash/redis` client can be tested (and used under `wrangler dev`) without the cloud service.
 *
 * Protocol (what @upstash/redis 1.39.0 sends and expects):
 * - POST `/` with a JSON array command (`["set","k","v","px",1000]`; names lower-case, numbers as JSON
 *   numbers) → 200 `{ "result": ... }`; a command error → 400 `{ "error": "..." }`.
 * - POST `/pipeline` with an array of commands → 200 `[{ "result" } | { "error" }, ...]` (not atomic).
 * - POST `/multi-exec` likewise, run atomically in MULTI/EXEC; a transaction Redis aborts → 400.
 * - `Authorization: Bearer <token>` required, else 401 `{ "error": "Unauthorized" }`.
 * - `Upstash-Encoding: base64` (the client's default): every string in the result, recursively in
 *   arrays, is the base64 of its bytes; integers and nulls stay as they are.
 * EVAL/EVALSHA/SCRIPT LOAD pass through like any command (the client's Script helper tries EVALSHA and
 * falls back to EVAL on a "NOSCRIPT" error, which Redis's own message satisfies).
 *
 * Isolation: give each bridge a `keyPrefix` (applied by ioredis to every key argument, EVAL KEYS
 * included; not to KEYS/SCAN patterns) or its own Redis `db`, so parallel test files do not collide.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis, type RedisValue } from 'ioredis';
import { serviceUrls } from '../../test/harness/services.ts';

export interface UpstashBridgeOptions {
  /** Default: `TEST_REDIS_URL` or redis://127.0.0.1:6379. */
  redisUrl?: string;
  /** The bearer token clients must send; random when omitted. */
  token?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Prefix added to every key (isolation between parallel users of one Redis). */
  keyPrefix?: string;
  /** Redis logical database number. */
  db?: number;
}

export interface UpstashBridge {
  /** e.g. http://127.0.0.1:41234 — pass as the Upstash `url`. */
  url: string;
  token: string;
  /** Deletes every key under the bridge's `keyPrefix` (refused without one); returns how many. */
  clear(): Promise<number>;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;

type Reply = null | number | string | Buffer | Reply[];
type Encoded = null | number | string | Encoded[];

class BadRequest extends Error {}

function encode(reply: unknown, base64: boolean): Encoded {
  if (reply === null || reply === undefined) return null;
  if (typeof reply === 'number') return reply;
  if (Buffer.isBuffer(reply)) return base64 ? reply.toString('base64') : reply.toString('utf8');
  if (typeof reply === 'string') return base64 ? Buffer.from(reply, 'utf8').toString('base64') : reply;
  if (Array.isArray(reply)) return reply.map((r: Reply) => encode(r, base64));
  // RESP3 types (maps, doubles, big numbers) are not produced on a RESP2 connection.
  return String(reply);
}

function toCommand(value: unknown): [string, RedisValue[]] {
  if (!Array.isArray(value) || value.length === 0)
    throw new BadRequest('command must be a non-empty JSON array');
  const parts = value.map((part) => {
    if (typeof part === 'string') return part;
    if (typeof part === 'number' || typeof part === 'boolean') return String(part);
    throw new BadRequest(`command arguments must be strings or numbers, got ${JSON.stringify(part)}`);
  });
  const [name, ...args] = parts;
  // Upper-case names skip ioredis's reply transformers (e.g. HGETALL to an object): raw replies, as Upstash.
  return [String(name).toUpperCase(), args];
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A Redis reply error (wrong command, wrong type...), as opposed to the connection failing. */
function isReplyError(err: unknown): boolean {
  // ioredis's reply errors (SimpleError, BlobError, EXECABORT) all report the name 'ReplyError'.
  return err instanceof Error && err.name === 'ReplyError';
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw new BadRequest('request body too large');
    chunks.push(buf);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new BadRequest('request body is not valid JSON');
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Starts the bridge on 127.0.0.1; fails fast when Redis is not reachable. */
export async function startUpstashBridge(options: UpstashBridgeOptions = {}): Promise<UpstashBridge> {
  const token = options.token ?? randomBytes(18).toString('base64url');
  const redis = new Redis(options.redisUrl ?? serviceUrls.redis, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 1,
    ...(options.keyPrefix ? { keyPrefix: options.keyPrefix } : {}),
    ...(options.db === undefined ? {} : { db: options.db }),
  });
  redis.on('error', () => {}); // reported per request; the client reconnects by itself
  await redis.connect();

  async function run(path: string, body: unknown, base64: boolean): Promise<[number, unknown]> {
    if (path === '/') {
      const [name, args] = toCommand(body);
      try {
        return [200, { result: encode(await redis.callBuffer(name, ...args), base64) }];
      } catch (err) {
        return [isReplyError(err) ? 400 : 500, { error: errorMessage(err) }];
      }
    }
    if (!Array.isArray(body)) throw new BadRequest(`${path} expects a JSON array of commands`);
    const commands = body.map(toCommand);
    const batch = path === '/multi-exec' ? redis.multi() : redis.pipeline();
    for (const [name, args] of commands) batch.callBuffer(name, ...args);
    let results: [Error | null, unknown][] | null;
    try {
      results = await batch.exec();
    } catch (err) {
      // EXECABORT: a command was refused while queueing, so nothing ran.
      return [isReplyError(err) ? 400 : 500, { error: errorMessage(err) }];
    }
    if (!results) return [500, { error: 'transaction was not executed' }];
    return [
      200,
      results.map(([err, reply]) => (err ? { error: err.message } : { result: encode(reply, base64) })),
    ];
  }

  const server = createServer((req, res) => {
    void (async () => {
      if (req.headers.authorization !== `Bearer ${token}`) return send(res, 401, { error: 'Unauthorized' });
      if (req.method !== 'POST') return send(res, 405, { error: 'only POST is supported' });
      const path = new URL(req.url ?? '/', 'http://bridge').pathname.replace(/\/+$/, '') || '/';
      if (path !== '/' && path !== '/pipeline' && path !== '/multi-exec') {
        return send(res, 404, { error: `unknown endpoint ${path}` });
      }
      const base64 = String(req.headers['upstash-encoding'] ?? '').toLowerCase() === 'base64';
      const [status, payload] = await run(path, await readBody(req), base64);
      send(res, status, payload);
    })().catch((err: unknown) => {
      if (!res.headersSent) send(res, err instanceof BadRequest ? 400 : 500, { error: errorMessage(err) });
      else res.destroy();
    });
  });

  // Upstash's endpoints keep a connection open far past Node's 5 s default; with the default, a pooled
  // socket the client reuses just as the server closes it fails the call (seen under a loaded CI run).
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closed = false;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    clear: async () => {
      const prefix = options.keyPrefix;
      if (!prefix) throw new Error('clear() needs a keyPrefix: it will not empty a whole Redis database');
      // SCAN patterns are not prefixed by ioredis, and the keys it returns carry the prefix already.
      const glob = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
      let cursor = '0';
      let deleted = 0;
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', glob, 'COUNT', 500);
        cursor = next;
        if (keys.length > 0) {
          // Strip the prefix that ioredis would otherwise add a second time.
          deleted += await redis.unlink(...keys.map((k) => k.slice(prefix.length)));
        }
      } while (cursor !== '0');
      return deleted;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      // fetch keeps connections alive: close them, or server.close() waits for their idle timeout.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
