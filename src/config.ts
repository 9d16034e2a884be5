import type { AppConfig } from './http/app.ts';

export type Env = Readonly<Record<string, string | undefined>>;

const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

const int = (value: string | undefined, fallback: number, name: string): number => {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
};

/** WORKER_SECRET guards POST /worker/drain; a short one would be guessable, so it is refused at start. */
const workerSecret = (value: string | undefined): string | null => {
  if (value === undefined || value.trim() === '') return null;
  if (value.length < 16) throw new Error('WORKER_SECRET must be at least 16 characters');
  return value;
};

/** Settings shared by every runtime, from environment variables (README lists them). */
export function appConfigFromEnv(
  env: Env,
): AppConfig & { rateLimit: { perSecond: number; burst: number } | null } {
  const perSecond = int(env.RATE_LIMIT_PER_SECOND, 50, 'RATE_LIMIT_PER_SECOND');
  return {
    allowedOrigins: list(env.ALLOWED_ORIGINS),
    allowedHosts: list(env.ALLOWED_HOSTS),
    maxBodyBytes: int(env.MAX_BODY_BYTES, 1024 * 1024, 'MAX_BODY_BYTES'),
    // A 20 MiB PDF is about 26.7 MiB as base64, plus the JSON-RPC around it.
    maxUploadBodyBytes: int(env.MAX_UPLOAD_BODY_BYTES, 28 * 1024 * 1024, 'MAX_UPLOAD_BODY_BYTES'),
    workerSecret: workerSecret(env.WORKER_SECRET),
    // 0 turns the limiter off (benchmarks); the default stops a runaway loop, not normal work.
    rateLimit:
      perSecond === 0
        ? null
        : { perSecond, burst: int(env.RATE_LIMIT_BURST, perSecond * 4, 'RATE_LIMIT_BURST') },
  };
}
