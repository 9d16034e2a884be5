/**
 * The operations commands as a new user meets them: `npm run db:migrate` (creates a missing database when the
 * user may, else one line with the fix), `npm run token` (says where it stored the token; refuses when the
 * server on the port uses another database), `npm run deploy` (stops before deploying when the migrations
 * fail; --dry-run needs no account).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/dev/worker.ts';
import { withAdmin } from '../harness/databases.ts';
import { describeWithService, serviceUrls } from '../harness/services.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const run = Math.random().toString(36).slice(2, 8);

function node(script: string, args: string[], env: Record<string, string | undefined>) {
  return new Promise<{ code: number; out: string; err: string }>((resolve) => {
    const base = { ...process.env };
    for (const k of [
      'DATABASE_URL',
      'DATA_DIR',
      'PORT',
      'HOST',
      'UPSTASH_REDIS_REST_URL',
      'UPSTASH_REDIS_REST_TOKEN',
    ])
      delete base[k];
    const child = spawn(process.execPath, [script, ...args], { cwd: root, env: { ...base, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.once('exit', (code) => resolve({ code: code ?? 1, out, err }));
  });
}

const urlFor = (database: string, user = 'postgres') => {
  const u = new URL(serviceUrls.postgres);
  u.username = user;
  u.pathname = `/${database}`;
  return u.toString();
};
const sql = (query: string) => withAdmin((c) => c.query(query));

describeWithService('postgres', 'operations commands', () => {
  const db = `chambers_cli_${run}`;
  const role = `chambers_nocreate_${run}`;
  let server: ChildProcess | undefined;
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'chambers-cli-'));
    await sql(`create role ${role} login nocreatedb`);
  });
  afterAll(async () => {
    if (server?.pid) process.kill(server.pid, 'SIGTERM');
    await sql(`drop database if exists ${db} with (force)`);
    await sql(`drop role if exists ${role}`);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('db:migrate creates a missing database, applies drizzle/, and is a no-op the second time', async () => {
    // --plan on the missing database: what a real run would do, in plain lines, and nothing created.
    const plan = await node('scripts/deploy/migrate.ts', ['--plan'], { DATABASE_URL: urlFor(db) });
    expect(plan.code, plan.err).toBe(0);
    expect(plan.err).toBe('');
    expect(plan.out).toContain(`The PostgreSQL database ${db} on`);
    expect(plan.out).toContain('does not exist yet: db:migrate would create it.');
    expect(plan.out).toMatch(/Would apply \d+ migration\(s\)[\s\S]*0000_/);
    const first = await node('scripts/deploy/migrate.ts', [], { DATABASE_URL: urlFor(db) });
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain(`Created the PostgreSQL database ${db}`);
    expect(first.out).toMatch(/Applied \d+ migration\(s\)[\s\S]*0007_token_admin/);
    const second = await node('scripts/deploy/migrate.ts', ['--plan'], { DATABASE_URL: urlFor(db) });
    expect(second.out).toContain('is up to date');
  });

  it('a database the user may not create, or a server that is not there: one line saying how to fix it', async () => {
    const denied = await node('scripts/deploy/migrate.ts', [], { DATABASE_URL: urlFor(`nope_${run}`, role) });
    expect(denied.code).toBe(1);
    expect(denied.err.trim().split('\n')).toHaveLength(1);
    expect(denied.err).toMatch(/does not exist .* may not create databases: run `createdb/);
    const closed = await node('scripts/deploy/migrate.ts', [], {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/x',
    });
    expect(closed.err.trim()).toBe(
      'Nothing accepts connections on 127.0.0.1:1 (DATABASE_URL): start PostgreSQL there, or fix the host and port.',
    );
  });

  it('token: refuses to mint into the embedded database while a server on the port uses PostgreSQL', async () => {
    const port = String(await freePort());
    server = spawn(process.execPath, ['entry/node.ts'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: urlFor(db), PORT: port, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    for (let i = 0; i < 200; i++) {
      const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const wrong = await node('entry/token.ts', ['ceo'], { PORT: port, DATA_DIR: dataDir });
    expect(wrong.code).toBe(1);
    expect(wrong.out).toBe('');
    expect(wrong.err).toContain(`The Chambers server on http://127.0.0.1:${port} uses another database`);
    const right = await node('entry/token.ts', ['analyst', '--expires-in', '7d'], {
      PORT: port,
      DATABASE_URL: urlFor(db),
    });
    expect(right.code, right.err).toBe(0);
    const token = right.out.trim();
    expect(token).toMatch(/^chm_\S+$/);
    expect(right.err).toMatch(new RegExp(`stored in the PostgreSQL database ${db} on .*; it expires 20`));
    const res = await fetch(`http://127.0.0.1:${port}/v1/tools`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const listed = await node('entry/token.ts', ['list'], { PORT: port, DATABASE_URL: urlFor(db) });
    expect(listed.out).toMatch(/analyst\s+live/);
    expect(listed.out).not.toContain(token);
  }, 60_000);

  it('deploy stops before wrangler when the migrations fail', async () => {
    const res = await node('scripts/deploy/deploy.ts', [], {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/chambers',
      UPSTASH_REDIS_REST_URL: 'https://example.invalid',
      UPSTASH_REDIS_REST_TOKEN: 'x',
      WORKER_SECRET: 'a-worker-secret-of-enough-length',
      CLOUDFLARE_API_TOKEN: 'not-a-real-token',
    });
    expect(res.code).toBe(1);
    expect(res.err).toContain('Nothing accepts connections on 127.0.0.1:1');
    expect(res.out).toContain('==> migrations');
    expect(res.out).not.toContain('==> deploy');
  }, 120_000);
});

describe('deploy --dry-run', () => {
  it('bundles both Workers, prints one size each, and applies the migrations to a scratch database', async () => {
    const res = await node('scripts/deploy/deploy.ts', ['--dry-run'], {});
    expect(res.code, res.err).toBe(0);
    expect(res.out).toMatch(/^MCP Worker \(chambers\): [\d.]+ KiB \/ gzip [\d.]+ KiB/m);
    expect(res.out).toMatch(/^extraction Worker \(chambers-extraction\): [\d.]+ KiB \/ gzip [\d.]+ KiB/m);
    expect(res.out).not.toContain('Total Upload');
    expect(res.out).toMatch(/All \d+ migrations apply cleanly to an empty database/);
    expect(res.out).toContain('deploy --dry-run: ok');
    // Without the settings a deploy needs, the dry run says where a real one would stop.
    expect(res.out).toContain(
      'not set: DATABASE_URL, UPSTASH_REDIS_REST_URL, UPSTASH_REDIS_REST_TOKEN, WORKER_SECRET, CLOUDFLARE_API_TOKEN — a real deploy would stop here',
    );
  }, 120_000);

  it('fails on a setting that is set but wrong, before bundling, in one line', async () => {
    const res = await node('scripts/deploy/deploy.ts', ['--dry-run'], {
      DATABASE_URL: 'mysql://nope',
      OCR_ENGINE: 'google_vision',
    });
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/^deploy: invalid settings: DATABASE_URL .*GOOGLE_VISION_API_KEY is not set/);
    expect(res.out).not.toContain('==> bundles');
  }, 120_000);
});
