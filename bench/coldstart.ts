/**
 * `npm run bench:coldstart`: how long a fresh workerd isolate takes to answer its first tools/list, for the
 * MCP Worker as it ships (heavy libraries in the extraction Worker) and for the one-Worker shape it replaced
 * (the same entry with pdf.js and the DOCX reader bundled in). Each run starts workerd itself (no wrangler, no
 * Miniflare in between) with the bundle,
 * sends one authenticated tools/list over the real stores (Neon proxy → the local PostgreSQL, Upstash bridge
 * → the local Redis) and stops; the clock runs from the start of workerd to the answer. Runs alternate and
 * the medians are compared; the last line is `coldstart: before_ms=… after_ms=… ratio=…`.
 *
 * Settings: COLDSTART_RUNS (default 7), TEST_DATABASE_URL's server (a scratch database is created and dropped).
 */

import { spawn } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import pg from 'pg';
import { type Bundle, bundleWorker, root, WORKERS } from '../scripts/deploy/bundle.ts';
import { startBridges } from '../scripts/dev/bridges.ts';
import { freePort } from '../scripts/dev/worker.ts';
import { mintToken } from '../src/auth/tokens.ts';
import { migrateDb } from '../src/db/migrate.ts';
import { openPostgres } from '../src/db/postgres.ts';

const RUNS = Number(process.env.COLDSTART_RUNS || 7);
const server = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const dbName = `chambers_coldstart_${process.pid}`;
const dbUrl = new URL(server);
dbUrl.pathname = `/${dbName}`;

const out = join(root, 'dist', 'coldstart');
await mkdir(out, { recursive: true });
// The one-Worker shape: the MCP Worker's config without the aliases, so the heavy libraries are bundled in.
const oneWorker = join(out, 'wrangler.one-worker.toml');
await writeFile(
  oneWorker,
  [
    'name = "chambers-one-worker"',
    'main = "../../entry/cloudflare.ts"',
    'compatibility_date = "2026-11-01"',
    'compatibility_flags = ["nodejs_compat"]',
    'rules = [{ type = "Text", globs = ["**/*.md"], fallthrough = true }]',
  ].join('\n'),
);
const variants: { label: string; dir: string; bundle: Bundle }[] = [];
for (const [label, config, dir] of [
  ['before (one Worker with pdf.js)', oneWorker, join(out, 'before')],
  ['after (MCP Worker)', WORKERS.mcp.config, join(out, 'after')],
] as const) {
  variants.push({ label, dir, bundle: await bundleWorker(config, dir) });
}

const admin = new pg.Client({ connectionString: server.toString() });
await admin.connect();
await admin.query(`drop database if exists ${dbName}`);
await admin.query(`create database ${dbName}`);
const handle = openPostgres(dbUrl.toString(), { max: 1 });
await migrateDb(handle);
const token = await mintToken(handle.db, 'ceo', 'coldstart');
await handle.close();
const bridges = await startBridges({ keyPrefix: `coldstart-${process.pid}:` });

const workerdBin = createRequire(import.meta.url).resolve('workerd/bin/workerd');
const capnpText = (v: string) => JSON.stringify(v);

/** A workerd config serving `files` (the bundle first) on `port`, with the stores' bindings. */
function workerdConfig(dir: string, files: string[], port: number): string {
  const modules = files.map((f) =>
    f.endsWith('.js')
      ? `(name = ${capnpText(f)}, esModule = embed ${capnpText(relative(out, join(dir, f)))})`
      : `(name = ${capnpText(f)}, text = embed ${capnpText(relative(out, join(dir, f)))})`,
  );
  const vars = {
    DATABASE_URL: dbUrl.toString(),
    NEON_WS_PROXY: bridges.neon.host,
    UPSTASH_REDIS_REST_URL: bridges.upstash.url,
    UPSTASH_REDIS_REST_TOKEN: bridges.upstash.token,
    LOG_LEVEL: 'warn',
    KV_PREFIX: 'coldstart',
  };
  const bindings = [
    ...Object.entries(vars).map(([k, v]) => `(name = ${capnpText(k)}, text = ${capnpText(v)})`),
    // tools/list never drains; the binding only has to exist.
    '(name = "EXTRACTION", service = "nowhere")',
  ];
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "mcp", worker = (
      modules = [${modules.join(', ')}],
      compatibilityDate = "2026-11-01",
      compatibilityFlags = ["nodejs_compat"],
      bindings = [${bindings.join(', ')}],
      globalOutbound = "loopback",
    )),
    (name = "loopback", network = (allow = ["local", "private", "public"])),
    (name = "nowhere", worker = (
      modules = [(name = "w.js", esModule = "export default { fetch() { return new Response('{}'); } }")],
      compatibilityDate = "2026-11-01",
    )),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "mcp")],
);
`;
}

async function firstToolsList(dir: string, files: string[]): Promise<number> {
  const port = await freePort();
  const config = join(out, `coldstart-${port}.capnp`);
  await writeFile(config, workerdConfig(dir, files, port));
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const headers = {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
  };
  const started = performance.now();
  const child = spawn(workerdBin, ['serve', config, '--experimental'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    // The first answer of a new process: refused connections until workerd listens, then the isolate's reply.
    for (;;) {
      if (child.exitCode !== null) throw new Error(`workerd exited: ${stderr.slice(-1000)}`);
      const res = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers, body }).catch(
        () => null,
      );
      if (res === null) {
        await new Promise((r) => setTimeout(r, 5));
        continue;
      }
      const text = await res.text();
      if (res.status !== 200 || !text.includes('case_create'))
        throw new Error(`tools/list: ${res.status} ${text.slice(0, 300)} ${stderr.slice(-500)}`);
      return performance.now() - started;
    }
  } finally {
    child.kill('SIGKILL');
    await exited;
    await rm(config, { force: true });
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

try {
  const times = variants.map(() => [] as number[]);
  // One warm-up each (workerd's binary and the OS caches), then alternate so drift hits both alike.
  for (const v of variants) await firstToolsList(v.dir, v.bundle.files);
  for (let i = 0; i < RUNS; i++) {
    for (const [k, v] of variants.entries()) times[k]?.push(await firstToolsList(v.dir, v.bundle.files));
  }
  const [before, after] = times.map(median) as [number, number];
  for (const [k, v] of variants.entries()) {
    console.log(
      `${v.label}: gzip ${(v.bundle.gzip / 1024).toFixed(2)} KiB; first tools/list median ${median(times[k] ?? []).toFixed(0)} ms ` +
        `(runs: ${(times[k] ?? []).map((t) => t.toFixed(0)).join(', ')})`,
    );
  }
  console.log(
    `coldstart: before_ms=${before.toFixed(0)} after_ms=${after.toFixed(0)} ratio=${(before / after).toFixed(2)}`,
  );
} finally {
  await bridges.close();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
}
