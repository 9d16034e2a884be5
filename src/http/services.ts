import type { Db } from '../db/types.ts';
import type { KvStore } from '../kv/types.ts';

/** The stores one request uses; on Node shared by all requests, on Workers made per request. */
export interface RequestServices {
  db: Db;
  kv: KvStore;
  /** Called once the response (including a streamed one) has finished. */
  release?(): Promise<void>;
}
