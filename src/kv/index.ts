export { createPostgresKv, purgeExpiredKv } from './postgres.ts';
export type { KvClaim, KvStore } from './types.ts';
export { createUpstashKv, type UpstashKvConfig } from './upstash.ts';
