// The local preview driver (the default without NEON_API_KEY / NEON_PROJECT_ID): everything on this machine.
// up: a database copied from a migrated template on the local PostgreSQL, and a detached host process that runs
// the bridges and `wrangler dev` (both Workers) on a free port with KV_PREFIX=<slug>; down: stops the host,
// drops the database and deletes the keys under the prefix. State lives in .preview/<slug>.json.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { createUpstashKv } from '../../../src/kv/upstash.ts';
import { startBridges } from '../../dev/bridges.ts';
import { startUpstashBridge } from '../../dev/upstash_bridge.ts';
import { startWorkerDev } from '../../dev/worker.ts';
import { root } from '../bundle.ts';
import { migrateTarget } from '../migrate.ts';
import { deletePreviewKeys, mintAgentTokens, type PreviewUp } from './common.ts';

export const stateDir = () => process.env.PREVIEW_STATE_DIR || join(root, '.preview');
/** The local PostgreSQL server (any database on it; previews get databases of their own). */
const serverUrl = () =>
  new URL(process.env.PREVIEW_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
const TEMPLATE_PREFIX = 'chambers_preview_template';

/**
 * The template for this set of migrations, named by their hash: a template migrated by another checkout's
 * migrations (another branch, renumbered files) is never reused. Older templates this checkout made (listed
 * in its state directory) are dropped; other checkouts' templates are theirs to drop.
 */
async function currentTemplate(): Promise<string> {
  const dir = join(root, 'drizzle');
  const hash = createHash('sha256');
  for (const entry of (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort()) {
    hash.update(entry.slice(dir.length)).update(await readFile(entry));
  }
  const name = `${TEMPLATE_PREFIX}_${hash.digest('hex').slice(0, 12)}`;
  const made = join(stateDir(), 'templates.json');
  const ours = await readFile(made, 'utf8')
    .then((t) => JSON.parse(t) as string[])
    .catch(() => [] as string[]);
  await admin(async (c) => {
    for (const datname of ours.filter((n) => n !== name && /^[a-z0-9_]+$/.test(n))) {
      // Names come from this function (lower-case hex, checked above), so quoting them in DDL is safe.
      await c.query(`drop database if exists "${datname}" with (force)`).catch(() => {});
    }
  });
  await writeFile(made, JSON.stringify([name]));
  return name;
}

const dbName = (slug: string) => `chambers_preview_${slug.replaceAll('-', '_')}`;
const dbUrl = (name: string) => {
  const u = serverUrl();
  u.pathname = `/${name}`;
  return u.toString();
};

interface LocalState {
  slug: string;
  branch: string;
  pid: number;
  database: string;
  /** The port it serves on: PREVIEW_PORT, else the port of its last run, else a free one. */
  port?: number;
  url?: string;
  error?: string;
}

const statePath = (slug: string) => join(stateDir(), `${slug}.json`);
async function readState(slug: string): Promise<LocalState | null> {
  try {
    return JSON.parse(await readFile(statePath(slug), 'utf8')) as LocalState;
  } catch {
    return null;
  }
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function admin<T>(f: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl().toString() });
  client.on('error', () => {});
  await client.connect();
  try {
    return await f(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Stops a host process (its whole group: wrangler and workerd) and waits for it to be gone. */
async function stopHost(pid: number): Promise<void> {
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-pid, s);
    } catch {
      // Already gone.
    }
  };
  signal('SIGTERM');
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  signal('SIGKILL');
}

export async function localUp(slug: string, branch: string): Promise<PreviewUp> {
  await mkdir(stateDir(), { recursive: true });
  const existing = await readState(slug);
  // An update keeps its URL: the port of the last run, unless PREVIEW_PORT names one.
  const port = process.env.PREVIEW_PORT
    ? Number(process.env.PREVIEW_PORT)
    : existing?.url !== undefined
      ? Number(new URL(existing.url).port)
      : 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PREVIEW_PORT must be a port number, got ${process.env.PREVIEW_PORT}`);
  if (existing?.url !== undefined && alive(existing.pid)) {
    // An update of a running preview: the database stays; the host restarts on the current code.
    await stopHost(existing.pid);
  }
  const name = dbName(slug);
  // The template carries every migration; a new preview database is a copy of it (CREATE DATABASE … TEMPLATE).
  const template = await currentTemplate();
  await migrateTarget({ DATABASE_URL: dbUrl(template) });
  const created = await admin(async (c) => {
    const { rows } = await c.query('select 1 from pg_database where datname = $1', [name]);
    if (rows.length > 0) return false;
    await c.query(`create database "${name}" template "${template}"`);
    return true;
  });
  if (!created) await migrateTarget({ DATABASE_URL: dbUrl(name) });
  const log = await open(join(stateDir(), `${slug}.log`), 'w');
  const child = spawn(
    process.execPath,
    [join(root, 'scripts', 'deploy', 'preview.ts'), '__host', slug, branch],
    {
      cwd: root,
      detached: true,
      stdio: ['ignore', log.fd, log.fd],
      env: process.env,
    },
  );
  child.unref();
  await log.close();
  const pid = child.pid;
  if (pid === undefined) throw new Error('the preview host could not be started');
  await writeFile(
    statePath(slug),
    JSON.stringify({ slug, branch, pid, database: name, port } satisfies LocalState),
  );
  for (let i = 0; ; i++) {
    const state = await readState(slug);
    if (state?.url !== undefined) break;
    if (state?.error !== undefined || !alive(pid) || i > 1200) {
      const tail = await readFile(join(stateDir(), `${slug}.log`), 'utf8').catch(() => '');
      await stopHost(pid);
      throw new Error(`the preview host did not start: ${state?.error ?? ''}\n${tail.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const state = (await readState(slug)) as LocalState;
  return {
    slug,
    url: state.url as string,
    tokens: created ? await mintAgentTokens(dbUrl(name), slug) : null,
  };
}

/** The detached host: bridges and `wrangler dev` for one preview, until SIGTERM. */
export async function localHost(slug: string): Promise<void> {
  const state = (await readState(slug)) as LocalState;
  const bridges = await startBridges({});
  try {
    const dev = await startWorkerDev({
      databaseUrl: dbUrl(state.database),
      neonProxy: bridges.neon.host,
      upstash: { url: bridges.upstash.url, token: bridges.upstash.token },
      port: state.port ?? 0,
      persistTo: join(stateDir(), `${slug}.wrangler`),
      vars: { KV_PREFIX: slug, LOG_LEVEL: 'info' },
    });
    await writeFile(statePath(slug), JSON.stringify({ ...state, url: dev.url }));
    const stop = async () => {
      await dev.stop();
      await bridges.close();
      process.exit(0);
    };
    process.once('SIGTERM', () => void stop());
    process.once('SIGINT', () => void stop());
  } catch (e) {
    await writeFile(statePath(slug), JSON.stringify({ ...state, error: String(e) }));
    await bridges.close();
    process.exit(1);
  }
}

export async function localDown(slug: string): Promise<{ database: boolean; keys: number }> {
  const state = await readState(slug);
  if (state !== null) await stopHost(state.pid);
  const name = dbName(slug);
  const database = await admin(async (c) => {
    const { rowCount } = await c.query('select 1 from pg_database where datname = $1', [name]);
    await c.query(`drop database if exists "${name}" with (force)`);
    return (rowCount ?? 0) > 0;
  });
  // The keys, through the same adapter the Worker writes with (the Upstash REST protocol, here to the local Redis).
  const bridge = await startUpstashBridge({});
  let keys = 0;
  try {
    keys = await deletePreviewKeys(createUpstashKv({ url: bridge.url, token: bridge.token }), slug);
  } finally {
    await bridge.close();
  }
  await rm(statePath(slug), { force: true });
  await rm(join(stateDir(), `${slug}.log`), { force: true });
  await rm(join(stateDir(), `${slug}.wrangler`), { recursive: true, force: true });
  return { database, keys };
}

export async function localList(): Promise<
  { slug: string; branch: string; url: string; running: boolean }[]
> {
  const names = await readdir(stateDir()).catch(() => [] as string[]);
  const out = [];
  for (const n of names.filter((f) => f.endsWith('.json'))) {
    const s = await readState(n.slice(0, -5));
    if (s !== null) out.push({ slug: s.slug, branch: s.branch, url: s.url ?? '', running: alive(s.pid) });
  }
  return out;
}

export const localDatabaseUrl = (slug: string) => dbUrl(dbName(slug));
