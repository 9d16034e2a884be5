// Settings from environment variables (README "Configuration" lists them), parsed by zod: one schema shared by
// every runtime, extended for Node (`npm start`) and for Workers (the bindings). A bad value is one ConfigError
// that names each variable; the values of secrets and URLs are never repeated in it.
import * as z from 'zod';
import { type OwnerGateMode, ownerGateModes } from './contract/gates.ts';
import { KV_PREFIX_PATTERN } from './kv/prefix.ts';
import type { LogLevel } from './log.ts';

export type Env = Readonly<Record<string, string | undefined>>;

/** A setting that was not usable: one message, naming every variable at fault. */
export class ConfigError extends Error {
  readonly variables: readonly string[];
  readonly problems: readonly { variable: string; message: string }[];

  constructor(problems: readonly { variable: string; message: string }[]) {
    super(`Invalid configuration: ${problems.map((p) => `${p.variable} ${p.message}`).join('; ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
    this.variables = problems.map((p) => p.variable);
  }
}

// An unset or blank variable means "the default" (an empty line in .env, an empty wrangler var).
const unsetIfBlank = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));
const optional = <T extends z.ZodType<unknown, string>>(schema: T) => unsetIfBlank.pipe(schema.optional());

const list = unsetIfBlank.transform((v) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== ''),
);

const wholeNumber = (max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, { error: (issue) => `must be a whole number (0 or more), got "${String(issue.input)}"` })
    .transform(Number)
    .refine((n) => n <= max, { error: (issue) => `must be at most ${max}, got ${String(issue.input)}` });

const count = (fallback: number, max?: number) => optional(wholeNumber(max)).transform((n) => n ?? fallback);
/** A whole number of at least 1 (a duration where 0 would mean "never usable"). */
const positive = (fallback: number, max: number) =>
  optional(wholeNumber(max).refine((n) => n >= 1, { error: 'must be at least 1' })).transform(
    (n) => n ?? fallback,
  );

/** An URL of one of `protocols`; the value is not echoed (a database URL carries its password). */
const url = (protocols: readonly string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { error: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}` },
  );

/** A variable a runtime cannot do without; unset, the message says how to set it. */
const required = <T extends z.ZodType<unknown, string>>(schema: T, how: string) =>
  z
    .string({ error: `is not set (${how})` })
    .refine((v) => v.trim() !== '', { error: `is empty (${how})` })
    .pipe(schema);

/**
 * How the guard trusts a token it has seen: `process` caches token → agent in this process (revocations made
 * here are honoured on the next call); `off` looks the token up on every call, so a revocation by any process
 * is honoured on the next call.
 */
export const authCacheModes = ['process', 'off'] as const;
export type AuthCacheMode = (typeof authCacheModes)[number];

const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const satisfies readonly LogLevel[];
const postgresUrl = url(['postgres:', 'postgresql:']);
const httpUrl = url(['https:', 'http:']);

/** What every runtime reads. */
const sharedShape = {
  ALLOWED_ORIGINS: list,
  ALLOWED_HOSTS: list,
  MAX_BODY_BYTES: count(1024 * 1024),
  // A 20 MiB PDF is about 26.7 MiB as base64, plus the JSON-RPC around it.
  MAX_UPLOAD_BODY_BYTES: count(28 * 1024 * 1024),
  // 0 turns the limiter off (benchmarks); the default stops a runaway loop, not normal work.
  RATE_LIMIT_PER_SECOND: count(50),
  RATE_LIMIT_BURST: optional(wholeNumber()),
  // WORKER_SECRET guards POST /worker/drain; a short one would be guessable, so it is refused at start.
  WORKER_SECRET: optional(z.string().min(16, { error: 'must be at least 16 characters' })).transform(
    (v) => v ?? null,
  ),
  // Every key-value key starts with it: empty for npm start, the branch for a preview, "prod" in production.
  KV_PREFIX: optional(
    z.string().regex(KV_PREFIX_PATTERN, {
      error: 'must be lower-case letters, digits and dashes (at most 63, no dash at either end)',
    }),
  ).transform((v) => v ?? ''),
  LOG_LEVEL: optional(
    z.enum(LOG_LEVELS, {
      error: (issue) => `must be one of ${LOG_LEVELS.join(', ')}, got "${String(issue.input)}"`,
    }),
  ).transform((v) => v ?? 'info'),
  // Unset, each runtime picks its default (createChambers' defaultOwnerGate): approval wherever it is deployed.
  OWNER_GATE: optional(
    z.enum(ownerGateModes, {
      error: (issue) => `must be one of ${ownerGateModes.join(', ')}, got "${String(issue.input)}"`,
    }),
  ),
  // Unset, each runtime picks its default (createChambers' defaultAuthCache): `process` on the embedded
  // database, `off` wherever another process can revoke a token (docs/operations.md "Token cache").
  AUTH_CACHE: optional(
    z.enum(authCacheModes, {
      error: (issue) => `must be one of ${authCacheModes.join(', ')}, got "${String(issue.input)}"`,
    }),
  ),
  // Missions that govern the legal work (docs/governance.md): on, every mutating legal tool on a case needs
  // the calling agent's live session lease on that case's active mission, its activity inside the contract.
  // Unset, off: the embedded local flow stays easy; a deployment that wants governed work sets it to on.
  GOVERNANCE_ENFORCE: optional(
    z.enum(['off', 'on'], { error: (issue) => `must be off or on, got "${String(issue.input)}"` }),
  ).transform((v) => v ?? 'off'),
  // The address people reach the server at (login links, the console URL in approval refusals); unset, the
  // origin of each request.
  PUBLIC_URL: optional(httpUrl),
  // Console sessions end after this long without a request, and this long after sign-in however busy.
  CONSOLE_SESSION_IDLE_MINUTES: positive(30, 7 * 24 * 60),
  CONSOLE_SESSION_MAX_HOURS: positive(12, 30 * 24),
};

const sharedSchema = z.object(sharedShape);

/** `npm start` (entry/node.ts): where to listen and which stores to open, besides the shared settings. */
export const nodeEnvSchema = z
  .object({
    ...sharedShape,
    HOST: optional(z.string()).transform((v) => v ?? '127.0.0.1'),
    PORT: count(8787, 65_535),
    DATA_DIR: optional(z.string()).transform((v) => v ?? '.data'),
    DATABASE_URL: optional(postgresUrl),
    UPSTASH_REDIS_REST_URL: optional(httpUrl),
    UPSTASH_REDIS_REST_TOKEN: optional(z.string()),
  })
  .superRefine((env, ctx) => {
    // One without the other would silently fall back to the Postgres key-value table.
    const [url, token] = [env.UPSTASH_REDIS_REST_URL, env.UPSTASH_REDIS_REST_TOKEN];
    if ((url === undefined) !== (token === undefined)) {
      const missing = url === undefined ? 'UPSTASH_REDIS_REST_URL' : 'UPSTASH_REDIS_REST_TOKEN';
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: 'is not set, but its pair is (set both or neither)',
      });
    }
  });

/**
 * The Workers bindings (wrangler.toml `[vars]` and `wrangler secret put`). `WorkerEnv` is derived from this
 * schema, so the type the entry is written against and the check it runs on the first request are one thing.
 */
export const workerEnvSchema = z.object({
  ...sharedShape,
  DATABASE_URL: required(postgresUrl, 'wrangler secret put DATABASE_URL: the Neon connection string'),
  UPSTASH_REDIS_REST_URL: required(httpUrl, 'wrangler secret put UPSTASH_REDIS_REST_URL'),
  UPSTASH_REDIS_REST_TOKEN: required(z.string(), 'wrangler secret put UPSTASH_REDIS_REST_TOKEN'),
  /** Local development only: "127.0.0.1:PORT" of the harness's WebSocket→TCP proxy to a local PostgreSQL. */
  NEON_WS_PROXY: optional(z.string()),
});

/**
 * Which OCR engine reads page images: `tesseract` in-process (the default on Node) or `google_vision`, Google
 * Cloud Vision's REST API (the managed path for the extraction Worker, which cannot run Tesseract: see
 * docs/operations.md). GOOGLE_VISION_ENDPOINT points the engine at another server speaking the same protocol
 * (a local stand-in); by default Google's.
 */
export const ocrEnvSchema = z
  .object({
    OCR_ENGINE: optional(
      z.enum(['tesseract', 'google_vision'], { error: 'must be tesseract or google_vision' }),
    ).transform((v) => v ?? 'tesseract'),
    GOOGLE_VISION_API_KEY: optional(z.string()),
    GOOGLE_VISION_ENDPOINT: optional(httpUrl),
  })
  .superRefine((env, ctx) => {
    if (env.OCR_ENGINE === 'google_vision' && env.GOOGLE_VISION_API_KEY === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['GOOGLE_VISION_API_KEY'],
        message:
          'is not set, but OCR_ENGINE is google_vision (an API key of a Google Cloud project with the Vision API enabled; on Workers: wrangler secret put GOOGLE_VISION_API_KEY --config wrangler.extraction.toml)',
      });
    }
  });
export type OcrConfig = z.output<typeof ocrEnvSchema>;

/** The bindings as Cloudflare passes them to the Worker: what `wrangler.toml` and the secrets must provide. */
export type WorkerEnv = z.input<typeof workerEnvSchema>;
export type WorkerConfig = z.output<typeof workerEnvSchema>;
export type NodeConfig = z.output<typeof nodeEnvSchema>;

/** Parses `env` with `schema`, or throws one ConfigError naming every variable at fault. */
export function parseEnv<S extends z.ZodType>(schema: S, env: unknown): z.output<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  throw new ConfigError(
    parsed.error.issues.map((issue) => ({
      variable: String(issue.path[0] ?? 'environment'),
      message: issue.message,
    })),
  );
}

/** Settings of the HTTP app (createApp), read from the shared part of the environment. */
export interface AppConfig {
  /** Origin hostnames allowed besides localhost-class ones; a request without Origin always passes. */
  allowedOrigins: readonly string[];
  /**
   * Host header hostnames allowed (ALLOWED_HOSTS); empty means any, unless the server listens on loopback
   * (`loopbackHosts`): then only the loopback names, as the MCP SDK's DNS-rebinding protection does.
   */
  allowedHosts: readonly string[];
  /** Cap on request bodies, checked before any parsing. */
  maxBodyBytes: number;
  /** The cap for agents granted a tool that takes file content (`takesUpload`), also before any parsing. */
  maxUploadBodyBytes: number;
  /** The secret of `POST /worker/drain`; null disables the route (every call gets 401). */
  workerSecret: string | null;
  /** PUBLIC_URL without a trailing slash, or null: then links use each request's origin. */
  publicUrl: string | null;
  /** Console sessions: CONSOLE_SESSION_IDLE_MINUTES and CONSOLE_SESSION_MAX_HOURS, in milliseconds. */
  consoleSession: { idleMs: number; maxMs: number };
  /** GOVERNANCE_ENFORCE is on: the kernel refuses a mutating legal call on a case without a lease (src/governance/enforce.ts). */
  governanceEnforce: boolean;
}

export interface ServerConfig extends AppConfig {
  /** OWNER_GATE when set; otherwise the runtime's default applies. */
  ownerGate: OwnerGateMode | undefined;
  /** AUTH_CACHE when set; otherwise the runtime's default applies. */
  authCache: AuthCacheMode | undefined;
  /** The per-agent token bucket; null when RATE_LIMIT_PER_SECOND is 0. */
  rateLimit: { perSecond: number; burst: number } | null;
  logLevel: LogLevel;
  /** KV_PREFIX: the start of every key-value key of this environment ('' for none). */
  kvPrefix: string;
}

/**
 * `npm start`'s owner gate when OWNER_GATE is unset: the agent's acknowledgement on the embedded database (a
 * local trial), the owner's approval wherever a real database is used.
 */
export const nodeDefaultOwnerGate = (settings: { DATABASE_URL?: string | undefined }): OwnerGateMode =>
  settings.DATABASE_URL === undefined ? 'ack' : 'approval';

/**
 * `npm start`'s token cache when AUTH_CACHE is unset: on the embedded database this server is the only
 * process that can revoke (the data directory is locked; `npm run token` asks this server), so `process`
 * honours every revocation at once; on DATABASE_URL another process may revoke, so `off`.
 */
export const nodeDefaultAuthCache = (settings: { DATABASE_URL?: string | undefined }): AuthCacheMode =>
  settings.DATABASE_URL === undefined ? 'process' : 'off';

/** The Host names a loopback-bound server answers to (the MCP SDK's localhostAllowedHostnames). */
export const LOOPBACK_HOSTNAMES = ['localhost', '127.0.0.1', '[::1]'] as const;

/** Whether `host` (HOST, where npm start listens) is a loopback address or name. */
export const isLoopbackHost = (host: string): boolean =>
  /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i.test(host.trim());

/**
 * The Host allowlist: ALLOWED_HOSTS when set; unset, the loopback names for a server bound to loopback (a
 * page served by another name that resolves to 127.0.0.1 — DNS rebinding — is refused), else any Host.
 */
export function hostAllowlist(allowedHosts: readonly string[], listenHost: string | undefined): string[] {
  if (allowedHosts.length > 0 || listenHost === undefined || !isLoopbackHost(listenHost)) {
    return [...allowedHosts];
  }
  // Bound to 127.0.0.2, say, the server is called by that address too.
  const own = /^127\./.test(listenHost.trim()) ? [listenHost.trim()] : [];
  return [...new Set<string>([...LOOPBACK_HOSTNAMES, ...own])];
}

/** Settings shared by every runtime (createChambers). */
export function appConfigFromEnv(env: Env): ServerConfig {
  const s = parseEnv(sharedSchema, env);
  const perSecond = s.RATE_LIMIT_PER_SECOND;
  return {
    allowedOrigins: s.ALLOWED_ORIGINS,
    allowedHosts: s.ALLOWED_HOSTS,
    maxBodyBytes: s.MAX_BODY_BYTES,
    maxUploadBodyBytes: s.MAX_UPLOAD_BODY_BYTES,
    workerSecret: s.WORKER_SECRET,
    publicUrl: s.PUBLIC_URL === undefined ? null : s.PUBLIC_URL.replace(/\/+$/, ''),
    consoleSession: {
      idleMs: s.CONSOLE_SESSION_IDLE_MINUTES * 60_000,
      maxMs: s.CONSOLE_SESSION_MAX_HOURS * 60 * 60_000,
    },
    governanceEnforce: s.GOVERNANCE_ENFORCE === 'on',
    ownerGate: s.OWNER_GATE,
    authCache: s.AUTH_CACHE,
    rateLimit: perSecond === 0 ? null : { perSecond, burst: s.RATE_LIMIT_BURST ?? perSecond * 4 },
    logLevel: s.LOG_LEVEL,
    kvPrefix: s.KV_PREFIX,
  };
}
