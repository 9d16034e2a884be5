// Running wrangler against the Cloudflare account (deploy, versions upload, delete), shared by `npm run deploy`
// and `npm run preview`. Secrets go in a JSON file given to `--secrets-file`, never on the command line, and
// are removed from wrangler's environment (wrangler lets environment values override the file's).
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './bundle.ts';
import { offlineEnv, wranglerBin } from './wrangler.ts';

/** The Worker's secrets: what `npm run deploy` uploads from the environment (README "Deploy"). */
export const WORKER_SECRETS = [
  'DATABASE_URL',
  'UPSTASH_REDIS_REST_URL',
  'UPSTASH_REDIS_REST_TOKEN',
  'WORKER_SECRET',
] as const;
export type WorkerSecrets = Record<(typeof WORKER_SECRETS)[number], string>;

export interface WranglerRun {
  code: number;
  output: string;
}

/**
 * Runs wrangler with `args`, echoing its output, with `secrets` (if any) in a temporary JSON file passed as
 * `--secrets-file`. Resolves with the exit code and the output (for URLs wrangler prints).
 */
export async function wrangler(
  args: readonly string[],
  options: { secrets?: Record<string, string>; echo?: (line: string) => void } = {},
): Promise<WranglerRun> {
  const dir = options.secrets === undefined ? null : await mkdtemp(join(tmpdir(), 'chambers-secrets-'));
  const secretsArgs: string[] = [];
  if (dir !== null) {
    const file = join(dir, 'secrets.json');
    await writeFile(file, JSON.stringify(options.secrets), { mode: 0o600 });
    secretsArgs.push('--secrets-file', file);
  }
  const env: Record<string, string | undefined> = {
    ...process.env,
    WRANGLER_SEND_METRICS: offlineEnv.WRANGLER_SEND_METRICS,
  };
  for (const name of Object.keys(options.secrets ?? {})) delete env[name];
  try {
    return await new Promise<WranglerRun>((resolve, reject) => {
      const child = spawn(process.execPath, [wranglerBin, ...args, ...secretsArgs], {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const echo = options.echo ?? ((line: string) => console.log(line));
      for (const stream of [child.stdout, child.stderr]) {
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => {
          output += chunk;
          for (const line of chunk.split('\n')) if (line.trim() !== '') echo(line);
        });
      }
      child.once('error', reject);
      child.once('exit', (code) => resolve({ code: code ?? 1, output }));
    });
  } finally {
    if (dir !== null) await rm(dir, { recursive: true, force: true });
  }
}

/** The URL wrangler printed for a preview alias or a deployment (the first workers.dev URL in its output). */
export function urlIn(output: string, kind: 'alias' | 'any' = 'any'): string | null {
  const lines = output.split('\n');
  const pick = kind === 'alias' ? lines.filter((l) => /alias/i.test(l)) : lines;
  for (const line of pick) {
    const m = /https:\/\/[^\s'"]+\.workers\.dev[^\s'"]*/.exec(line);
    if (m !== null) return m[0];
  }
  return null;
}
