/**
 * `npm run preview` end to end. Local driver: up → a tools/call through the preview URL with its token → down →
 * the database and the keys are gone. Neon driver: against a local stand-in of Neon's API (neon_standin.ts),
 * wrangler's uploads in --dry-run, the branch's database real (on the local PostgreSQL): created, migrated,
 * tokens minted, reused on a second up, deleted on down with the keys under its prefix.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slugOf } from '../../scripts/deploy/preview/common.ts';
import { startUpstashBridge, type UpstashBridge } from '../../scripts/dev/upstash_bridge.ts';
import { createUpstashKv } from '../../src/kv/upstash.ts';
import { withAdmin } from '../harness/databases.ts';
import { describeWithService, serviceUrls } from '../harness/services.ts';
import { type NeonStandIn, startNeonStandIn } from './neon_standin.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const run = Math.random().toString(36).slice(2, 8);

function preview(args: string[], env: Record<string, string | undefined>) {
  return new Promise<{ code: number; out: string; err: string }>((resolve) => {
    const clean = { ...process.env };
    for (const k of ['NEON_API_KEY', 'NEON_PROJECT_ID', 'GITHUB_ACTIONS', 'GITHUB_OUTPUT']) delete clean[k];
    const child = spawn(process.execPath, ['scripts/deploy/preview.ts', ...args], {
      cwd: root,
      env: { ...clean, ...env },
    });
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

const tokenOf = (out: string, agent: string) =>
  new RegExp(`^\\s+${agent}\\s+(chm_\\S+)$`, 'm').exec(out)?.[1];
const databaseExists = (name: string) =>
  withAdmin(
    async (c) => (await c.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1,
  );
const admin = (query: string) => withAdmin((c) => c.query(query));
const redisKeys = async (pattern: string) => {
  const redis = new Redis(serviceUrls.redis);
  try {
    return await redis.keys(pattern);
  } finally {
    redis.disconnect();
  }
};

describe('preview slugs', () => {
  it('turns a git branch into a short lower-case name that is also a key-value prefix', () => {
    expect(slugOf('feature/Token-Admin_2')).toBe('feature-token-admin-2');
    expect(slugOf('42-fix')).toBe('b-42-fix');
    expect(slugOf('prod')).toBe('b-prod');
    expect(slugOf(`x/${'a'.repeat(80)}`)).toHaveLength(40);
    expect(() => slugOf('///')).toThrow();
  });
});

describeWithService('postgres', 'npm run preview', () => {
  describeWithService('redis', 'with Redis', () => {
    let state = '';
    beforeAll(async () => {
      state = await mkdtemp(join(tmpdir(), 'chambers-preview-'));
    });
    afterAll(async () => {
      if (state) await rm(state, { recursive: true, force: true });
    });

    it('local driver: up, a tools/call through the preview URL with its token, down leaves nothing', async () => {
      const branch = `test/local-${run}`;
      const slug = slugOf(branch);
      const env = { PREVIEW_STATE_DIR: state };
      // Another checkout's template (other migrations) is not this checkout's to drop.
      const foreign = `chambers_preview_template_${run}other`;
      await admin(`create database ${foreign}`);
      const up = await preview(['up', branch], env);
      expect(up.code, up.err).toBe(0);
      expect(await databaseExists(foreign)).toBe(true);
      await admin(`drop database ${foreign}`);
      const url = /^Preview \S+: (http:\/\/127\.0\.0\.1:\d+)\/mcp$/m.exec(up.out)?.[1];
      const token = tokenOf(up.out, 'ceo');
      expect(url).toBeDefined();
      expect(token).toBeDefined();
      try {
        const client = new Client({ name: 'preview-test', version: '1.0.0' });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
            requestInit: { headers: { Authorization: `Bearer ${token}` } },
          }),
        );
        const result = await client.callTool({
          name: 'case_create',
          arguments: { case_number: `ערר ${run}/26`, title: 'תצוגה מקדימה' },
        });
        await client.close();
        expect((result.structuredContent as { ok: boolean }).ok).toBe(true);
        // An update of the running preview restarts it on the same URL.
        const again = await preview(['up', branch], env);
        expect(again.code, again.err).toBe(0);
        expect(again.out).toContain(`${url}/mcp`);
        // The idempotency record went under the preview's prefix.
        expect((await redisKeys(`${slug}:*`)).length).toBeGreaterThan(0);
        expect(await databaseExists(`chambers_preview_${slug.replaceAll('-', '_')}`)).toBe(true);
        expect((await preview(['list'], env)).out).toContain(slug);
      } finally {
        const down = await preview(['down', branch], env);
        expect(down.code, down.err).toBe(0);
      }
      expect(await databaseExists(`chambers_preview_${slug.replaceAll('-', '_')}`)).toBe(false);
      expect(await redisKeys(`${slug}:*`)).toEqual([]);
      expect((await preview(['list'], env)).out).not.toContain(slug);
      // The Worker is gone with its host.
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    }, 180_000);

    describe('Neon driver against a local stand-in of the Neon API', () => {
      let neon: NeonStandIn;
      let bridge: UpstashBridge;
      const env = () => ({
        NEON_API_KEY: neon.apiKey,
        NEON_PROJECT_ID: neon.projectId,
        NEON_API_URL: neon.url,
        NEON_POLL_MS: '10',
        UPSTASH_REDIS_REST_URL: bridge.url,
        UPSTASH_REDIS_REST_TOKEN: bridge.token,
        PREVIEW_STATE_DIR: state,
      });
      beforeAll(async () => {
        neon = await startNeonStandIn({ postgresUrl: serviceUrls.postgres, lockedOnce: true });
        bridge = await startUpstashBridge({});
      });
      afterAll(async () => {
        await neon?.close();
        await bridge?.close();
      });

      it('creates and migrates a branch, mints tokens, reuses it on the next up, and deletes it with its keys', async () => {
        const branch = `feature/Neon-${run}`;
        const slug = slugOf(branch);
        const up = await preview(['up', branch, '--dry-run'], env());
        expect(up.code, up.err + up.out).toBe(0);
        // A 423 (an operation running) was retried; the branch was asked for with a read-write compute.
        expect(neon.requests.filter((r) => r.startsWith('POST'))).toHaveLength(2);
        expect(neon.bodies.at(-1)).toEqual({
          branch: { name: `preview/${slug}` },
          endpoints: [{ type: 'read_write' }],
        });
        expect(neon.requests.some((r) => r.startsWith('GET') && r.includes('/operations/'))).toBe(true);
        const [created] = [...neon.branches.values()];
        expect(created?.name).toBe(`preview/${slug}`);
        // Migrated, with one token per agent.
        const c = new pg.Client({
          connectionString: serviceUrls.postgres.replace(/\/[^/]*$/, `/${created?.database}`),
        });
        await c.connect();
        const { rows } = await c.query<{ agent: string }>('select agent from agent_tokens order by agent');
        await c.end();
        expect(rows.map((r) => r.agent)).toEqual(['analyst', 'ceo', 'qa', 'researcher', 'writer']);
        expect(tokenOf(up.out, 'writer')).toMatch(/^chm_/);
        expect(up.out).toContain(`https://${slug}-chambers.`);
        // A second up (the pull request got a new commit) reuses the branch: no second branch, no new tokens.
        const again = await preview(['up', branch, '--dry-run'], env());
        expect(again.code, again.err).toBe(0);
        expect(neon.branches.size).toBe(1);
        expect(tokenOf(again.out, 'ceo')).toBeUndefined();
        expect((await preview(['list'], env())).out).toContain(slug);
        // A key the preview wrote, and one of another environment that must survive.
        const kv = createUpstashKv({ url: bridge.url, token: bridge.token });
        await kv.set(`${slug}:idem:v1:x`, 'preview', 60_000);
        await kv.set(`prod:idem:v1:${run}`, 'production', 60_000);
        const down = await preview(['down', branch, '--dry-run'], env());
        expect(down.code, down.err).toBe(0);
        expect(neon.requests.some((r) => r.startsWith('DELETE') && r.includes(created?.id ?? '?'))).toBe(
          true,
        );
        expect(neon.branches.size).toBe(0);
        expect(await databaseExists(created?.database ?? '')).toBe(false);
        expect(await kv.get(`${slug}:idem:v1:x`)).toBeNull();
        expect(await kv.get(`prod:idem:v1:${run}`)).toBe('production');
        await kv.delete(`prod:idem:v1:${run}`);
      }, 180_000);

      it('says what Neon answered when the API key is wrong', async () => {
        const res = await preview(['up', `bad-${run}`, '--dry-run'], { ...env(), NEON_API_KEY: 'wrong' });
        expect(res.code).toBe(1);
        expect(res.err).toMatch(/Neon API 401/);
      });
    });
  });
});
