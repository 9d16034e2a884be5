// How our scripts run wrangler: this project's copy, offline.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// The package exports only package.json besides its API, so locate the bin next to it.
export const wranglerBin = join(
  dirname(createRequire(import.meta.url).resolve('wrangler/package.json')),
  'bin',
  'wrangler.js',
);

/** Offline: no telemetry, and no lookup of a Cloudflare host for `Request.cf`. */
export const offlineEnv = { WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' } as const;
