// The environment, parsed by the schemas of src/config.ts: defaults, one ConfigError naming every bad
// variable, secrets and URLs never echoed; and the Workers entry answering a missing binding with one
// `misconfigured` error on the first request instead of failing inside a driver.
import { readFile } from 'node:fs/promises';
import type { ExecutionContext, ScheduledController } from '@cloudflare/workers-types';
import { beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from '../../entry/worker.ts';
import { AGENT_NAMES } from '../../src/agents/grants.ts';
import {
  appConfigFromEnv,
  ConfigError,
  hostAllowlist,
  nodeDefaultOwnerGate,
  nodeEnvSchema,
  parseEnv,
  type WorkerEnv,
  workerEnvSchema,
} from '../../src/config.ts';
import { createChambers } from '../../src/server.ts';
import { fixtureAgents } from '../conformance/fixture.ts';

const configError = (f: () => unknown): ConfigError => {
  try {
    f();
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('expected a ConfigError');
};

describe('the shared settings', () => {
  it('defaults when unset or blank', () => {
    expect(appConfigFromEnv({ MAX_BODY_BYTES: '', LOG_LEVEL: ' ' })).toEqual({
      allowedOrigins: [],
      allowedHosts: [],
      maxBodyBytes: 1024 * 1024,
      maxUploadBodyBytes: 28 * 1024 * 1024,
      workerSecret: null,
      rateLimit: { perSecond: 50, burst: 200 },
      logLevel: 'info',
      kvPrefix: '',
      publicUrl: null,
      ownerGate: undefined,
      consoleSession: { idleMs: 30 * 60_000, maxMs: 12 * 60 * 60_000 },
      authCache: undefined,
      governanceEnforce: false,
    });
  });

  it('reads the console session’s idle timeout and lifetime, and refuses 0 or a fraction', () => {
    expect(
      appConfigFromEnv({ CONSOLE_SESSION_IDLE_MINUTES: '5', CONSOLE_SESSION_MAX_HOURS: '2' }).consoleSession,
    ).toEqual({ idleMs: 5 * 60_000, maxMs: 2 * 60 * 60_000 });
    expect(() => appConfigFromEnv({ CONSOLE_SESSION_IDLE_MINUTES: '0' })).toThrow(
      /CONSOLE_SESSION_IDLE_MINUTES must be at least 1/,
    );
    expect(() => appConfigFromEnv({ CONSOLE_SESSION_MAX_HOURS: '1.5' })).toThrow(
      /CONSOLE_SESSION_MAX_HOURS must be a whole number/,
    );
  });

  it('reads GOVERNANCE_ENFORCE (off unless on), and refuses any other value, naming it', () => {
    expect(appConfigFromEnv({ GOVERNANCE_ENFORCE: 'on' }).governanceEnforce).toBe(true);
    expect(appConfigFromEnv({ GOVERNANCE_ENFORCE: 'off' }).governanceEnforce).toBe(false);
    expect(appConfigFromEnv({ GOVERNANCE_ENFORCE: ' ' }).governanceEnforce).toBe(false);
    expect(() => appConfigFromEnv({ GOVERNANCE_ENFORCE: 'yes' })).toThrow(
      /GOVERNANCE_ENFORCE must be off or on, got "yes"/,
    );
  });

  it('reads KV_PREFIX, and refuses one that could run into another environment’s keys', () => {
    expect(appConfigFromEnv({ KV_PREFIX: 'feature-12' }).kvPrefix).toBe('feature-12');
    expect(() => appConfigFromEnv({ KV_PREFIX: 'a:b' })).toThrow(/KV_PREFIX must be lower-case letters/);
  });

  it('defaults owner gates to approval, except npm start on the embedded database', async () => {
    expect(nodeDefaultOwnerGate({})).toBe('ack');
    expect(nodeDefaultOwnerGate({ DATABASE_URL: 'postgres://db.example/chambers' })).toBe('approval');
    const chambers = (env: Record<string, string>) =>
      createChambers({
        agents: fixtureAgents([]),
        env: { LOG_LEVEL: 'silent', ...env },
        services: () => Promise.reject(new Error('no stores in this test')),
        tools: [],
        jobHandlers: {},
      }).ownerGate;
    expect(chambers({})).toBe('approval');
    expect(chambers({ OWNER_GATE: 'ack' })).toBe('ack');
  });

  it('reads the owner gate mode and the public address', () => {
    expect(appConfigFromEnv({ OWNER_GATE: 'approval' }).ownerGate).toBe('approval');
    expect(appConfigFromEnv({ OWNER_GATE: 'ack' }).ownerGate).toBe('ack');
    expect(appConfigFromEnv({ PUBLIC_URL: 'https://chambers.example/' }).publicUrl).toBe(
      'https://chambers.example',
    );
    const error = configError(() => appConfigFromEnv({ OWNER_GATE: 'trust', PUBLIC_URL: 'ftp://x' }));
    expect(error.variables).toEqual(['OWNER_GATE', 'PUBLIC_URL']);
    expect(error.message).toContain('OWNER_GATE must be one of ack, approval, got "trust"');
  });

  it('reads lists, whole numbers, the limiter switch and the log level', () => {
    const config = appConfigFromEnv({
      ALLOWED_ORIGINS: ' app.example, ,chambers.example ',
      MAX_BODY_BYTES: ' 4096 ',
      RATE_LIMIT_PER_SECOND: '0',
      LOG_LEVEL: 'silent',
      WORKER_SECRET: 'sixteen-chars-ok',
    });
    expect(config).toMatchObject({
      allowedOrigins: ['app.example', 'chambers.example'],
      maxBodyBytes: 4096,
      rateLimit: null,
      logLevel: 'silent',
      workerSecret: 'sixteen-chars-ok',
    });
    expect(appConfigFromEnv({ RATE_LIMIT_PER_SECOND: '5' }).rateLimit).toEqual({ perSecond: 5, burst: 20 });
  });

  it('one error naming every bad variable, without repeating a secret', () => {
    const error = configError(() =>
      appConfigFromEnv({
        MAX_BODY_BYTES: '1e3',
        RATE_LIMIT_BURST: '-1',
        WORKER_SECRET: 'hunter2',
        LOG_LEVEL: 'loud',
      }),
    );
    expect(error.variables).toEqual(['MAX_BODY_BYTES', 'RATE_LIMIT_BURST', 'WORKER_SECRET', 'LOG_LEVEL']);
    expect(error.message).toBe(
      'Invalid configuration: MAX_BODY_BYTES must be a whole number (0 or more), got "1e3"; ' +
        'RATE_LIMIT_BURST must be a whole number (0 or more), got "-1"; ' +
        'WORKER_SECRET must be at least 16 characters; ' +
        'LOG_LEVEL must be one of debug, info, warn, error, silent, got "loud"',
    );
    expect(error.message).not.toContain('hunter2');
  });
});

describe('npm start (Node)', () => {
  it('bound to loopback with ALLOWED_HOSTS unset, only the loopback Host names; otherwise as set', () => {
    const loopback = ['localhost', '127.0.0.1', '[::1]'];
    for (const host of ['127.0.0.1', 'localhost', '::1', ' LOCALHOST ']) {
      expect(hostAllowlist([], host)).toEqual(loopback);
    }
    expect(hostAllowlist([], '127.0.0.2')).toEqual([...loopback, '127.0.0.2']);
    // Any Host: bound to every interface or another address, or not bound at all (Workers).
    for (const host of ['0.0.0.0', '::', '10.1.2.3', 'chambers.example', undefined]) {
      expect(hostAllowlist([], host)).toEqual([]);
    }
    expect(hostAllowlist(['chambers.example'], '127.0.0.1')).toEqual(['chambers.example']);
  });

  it('defaults host, port and data directory', () => {
    expect(parseEnv(nodeEnvSchema, {})).toMatchObject({ HOST: '127.0.0.1', PORT: 8787, DATA_DIR: '.data' });
  });

  it('refuses a bad port, a database URL of another kind (not echoing it) and half an Upstash pair', () => {
    const error = configError(() =>
      parseEnv(nodeEnvSchema, {
        PORT: '70000',
        DATABASE_URL: 'mysql://user:s3cret@db.example/chambers',
        UPSTASH_REDIS_REST_URL: 'https://redis.example',
      }),
    );
    expect(error.variables).toEqual(['PORT', 'DATABASE_URL', 'UPSTASH_REDIS_REST_TOKEN']);
    expect(error.message).toContain('DATABASE_URL must be a URL starting with postgres:// or postgresql://');
    expect(error.message).toContain('UPSTASH_REDIS_REST_TOKEN is not set, but its pair is');
    expect(error.message).not.toContain('s3cret');
  });
});

describe('the Workers bindings', () => {
  const bindings: WorkerEnv = {
    DATABASE_URL: 'postgres://user:pw@neon.example/chambers',
    UPSTASH_REDIS_REST_URL: 'https://redis.example',
    UPSTASH_REDIS_REST_TOKEN: 'token',
  };

  it('parses the bindings the type describes', () => {
    expect(parseEnv(workerEnvSchema, { ...bindings, LOG_LEVEL: 'warn' })).toMatchObject({
      ...bindings,
      LOG_LEVEL: 'warn',
    });
  });

  it('names each missing binding and how to set it', () => {
    const error = configError(() => parseEnv(workerEnvSchema, { DATABASE_URL: ' ' }));
    expect(error.variables).toEqual(['DATABASE_URL', 'UPSTASH_REDIS_REST_URL', 'UPSTASH_REDIS_REST_TOKEN']);
    expect(error.message).toContain('DATABASE_URL is empty (wrangler secret put DATABASE_URL');
    expect(error.message).toContain('UPSTASH_REDIS_REST_TOKEN is not set (wrangler secret put');
  });

  describe('the Worker entry', () => {
    let agentFiles: Record<string, string>;
    const ctx = { waitUntil: () => {}, passThroughOnException: () => {} } as unknown as ExecutionContext;
    beforeAll(async () => {
      agentFiles = {};
      for (const name of AGENT_NAMES) {
        agentFiles[`agents/${name}.md`] = await readFile(`agents/${name}.md`, 'utf8');
      }
    });

    it('answers every request with one misconfigured error naming the missing binding, in each route shape', async () => {
      const worker = createWorker(agentFiles);
      const { DATABASE_URL: _, ...withoutDatabase } = bindings;
      const env = withoutDatabase as WorkerEnv;
      for (let i = 0; i < 2; i++) {
        const mcp = await worker.fetch(
          new Request('https://chambers.example/mcp', { method: 'POST', body: '{}' }),
          env,
          ctx,
        );
        expect(mcp.status).toBe(500);
        expect(await mcp.json()).toEqual({
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -32000,
            message: expect.stringMatching(
              /^Invalid configuration: DATABASE_URL is not set \(wrangler secret put/,
            ),
            data: { code: 'misconfigured', hint: expect.any(String) },
          },
        });
        const health = await worker.fetch(new Request('https://chambers.example/healthz'), env, ctx);
        expect(health.status).toBe(500);
        expect(await health.json()).toMatchObject({
          ok: false,
          status: 'error',
          error: { code: 'misconfigured', message: expect.stringContaining('DATABASE_URL') },
        });
      }
      await expect(async () => worker.scheduled({} as ScheduledController, env, ctx)).rejects.toThrow(
        /DATABASE_URL is not set/,
      );
    });

    it('never repeats a bad binding’s value', async () => {
      const worker = createWorker(agentFiles);
      const env = { ...bindings, DATABASE_URL: 'mysql://user:s3cret@db.example/x' };
      const res = await worker.fetch(new Request('https://chambers.example/v1/tools'), env, ctx);
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(text).toContain('DATABASE_URL must be a URL starting with postgres://');
      expect(text).not.toContain('s3cret');
    });

    // The service binding to the extraction Worker, as Cloudflare passes it (a Fetcher); never called here.
    const EXTRACTION = { fetch: () => Promise.resolve(new Response('{}')) };

    it('answers misconfigured, naming EXTRACTION, when the extraction Worker is not bound', async () => {
      const worker = createWorker(agentFiles);
      const res = await worker.fetch(new Request('https://chambers.example/healthz'), bindings, ctx);
      expect(res.status).toBe(500);
      expect(await res.json()).toMatchObject({
        error: { code: 'misconfigured', message: expect.stringContaining('EXTRACTION is not bound') },
      });
    });

    it('serves once the bindings are good', async () => {
      const worker = createWorker(agentFiles);
      const res = await worker.fetch(
        new Request('https://chambers.example/nowhere'),
        { ...bindings, EXTRACTION },
        ctx,
      );
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: 'route_not_found' } });
    });
  });
});
