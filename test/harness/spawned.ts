/**
 * `npm start` as a separate process (node entry/node.ts) on a data directory of the caller's, for the suites
 * and scripts whose subject is the process itself: crashes (kill -9), backups of a running server, the soak.
 * Tools are called over the plain JSON route (/v1/tools/:name) with the tokens the first start printed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../scripts/dev/worker.ts';
import type { Envelope } from '../../src/contract/envelope.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface SpawnedServer {
  url: string;
  port: number;
  child: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  call(token: string, tool: string, args: unknown, signal?: AbortSignal): Promise<Envelope>;
  /** Resolves with the exit code (or signal name) when the process ends. */
  exited: Promise<number | string>;
  /** SIGKILL: no shutdown handler runs, as in a power cut or the OOM killer. */
  kill9(): Promise<void>;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
}

export interface SpawnOptions {
  dataDir: string;
  /** The port to take (a restart keeps its port); a free one by default. */
  port?: number;
  env?: Record<string, string | undefined>;
  /** Waits for "listening" (default); false returns at once (a start expected to fail). */
  wait?: boolean;
  /** The script run: entry/node.ts by default; entry/start.mjs is what `npm start` runs (the bundled entry). */
  entry?: 'entry/node.ts' | 'entry/start.mjs';
}

// The caller's own store settings must not leak into a server that is meant to use its DATA_DIR.
const cleared = [
  'DATABASE_URL',
  'DATA_DIR',
  'PORT',
  'HOST',
  'UPSTASH_REDIS_REST_URL',
  'UPSTASH_REDIS_REST_TOKEN',
  'OWNER_GATE',
];

export async function spawnServer(o: SpawnOptions): Promise<SpawnedServer> {
  const port = o.port ?? (await freePort());
  const base: Record<string, string | undefined> = { ...process.env };
  for (const k of cleared) delete base[k];
  const child = spawn(process.execPath, [o.entry ?? 'entry/node.ts'], {
    cwd: root,
    env: { LOG_LEVEL: 'warn', ...base, DATA_DIR: o.dataDir, PORT: String(port), ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const url = `http://127.0.0.1:${port}`;
  const server: SpawnedServer = {
    url,
    port,
    child,
    output: () => out,
    exited,
    async call(token, tool, args, signal) {
      const res = await fetch(`${url}/v1/tools/${tool}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(args),
        ...(signal ? { signal } : {}),
      });
      return (await res.json()) as Envelope;
    },
    async kill9() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
  if (o.wait === false) return server;
  const deadline = Date.now() + 120_000;
  let ended: number | string | undefined;
  void exited.then((c) => {
    ended = c;
  });
  while (!out.includes('Chambers listening on')) {
    if (ended !== undefined) throw new Error(`npm start exited (${ended}) before listening:\n${out}`);
    if (Date.now() > deadline) throw new Error(`npm start did not listen within 120 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  // A first start prints its tokens right after the listening line, possibly in a later chunk.
  await new Promise((r) => setTimeout(r, 100));
  while (out.includes('First start') && !/MCP client configuration[\s\S]*\n\}\n/.test(out)) {
    if (Date.now() > deadline) throw new Error(`npm start printed no client configuration:\n${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return server;
}

/** The tokens a first start printed, by agent. */
export function firstStartTokens(output: string): Record<string, string> {
  const tokens: Record<string, string> = {};
  for (const m of output.matchAll(/^ {2}(\w+)\s+(chm_\S+)$/gm)) tokens[m[1] as string] = m[2] as string;
  if (Object.keys(tokens).length === 0) throw new Error(`no tokens in the first start's output:\n${output}`);
  return tokens;
}
