// The local Upstash REST bridge (scripts/dev/upstash_bridge.ts) speaks Upstash's protocol faithfully enough
// for the real @upstash/redis client: bearer auth, base64 response encoding, command errors, /pipeline,
// /multi-exec, and key prefixes that keep bridges apart.
import { randomBytes } from 'node:crypto';
import { Redis } from '@upstash/redis/cloudflare';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startUpstashBridge, type UpstashBridge } from '../../scripts/dev/upstash_bridge.ts';
import { createUpstashKv } from '../../src/kv/upstash.ts';
import { describeWithService, redisTestPrefix } from '../harness/services.ts';

const LONG_TTL = 60_000;

describeWithService('redis', 'Upstash REST bridge protocol', () => {
  let bridge: UpstashBridge | undefined;
  const getBridge = () => {
    if (!bridge) throw new Error('bridge not ready');
    return bridge;
  };
  beforeAll(async () => {
    bridge = await startUpstashBridge({ keyPrefix: redisTestPrefix('bridge') });
  });
  afterAll(async () => {
    await bridge?.clear();
    await bridge?.close();
  });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${getBridge().url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${getBridge().token}`,
        ...headers,
      },
      body: JSON.stringify(body),
    });

  it('answers 401 without the token or with a wrong one', async () => {
    const none = await fetch(getBridge().url, { method: 'POST', body: '["PING"]' });
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ error: 'Unauthorized' });
    const wrong = await post('/', ['PING'], { authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);
    const client = new Redis({
      url: getBridge().url,
      token: 'nope',
      enableTelemetry: false,
      retry: { retries: 0 },
    });
    await expect(client.ping()).rejects.toThrow(/Unauthorized/);
  });

  it('encodes string results as base64 (recursively) only when asked', async () => {
    await post('/', ['SET', 'b64', 'שלום']);
    const plain = await post('/', ['GET', 'b64']);
    expect(await plain.json()).toEqual({ result: 'שלום' });
    const encoded = await post('/', ['GET', 'b64'], { 'Upstash-Encoding': 'base64' });
    expect(await encoded.json()).toEqual({ result: Buffer.from('שלום').toString('base64') });
    const nested = await post(
      '/',
      ['EVAL', "return {redis.call('GET', KEYS[1]), 7, {'x'}, false}", 1, 'b64'],
      {
        'Upstash-Encoding': 'base64',
      },
    );
    expect(await nested.json()).toEqual({
      result: [Buffer.from('שלום').toString('base64'), 7, [Buffer.from('x').toString('base64')], null],
    });
  });

  it('answers command errors with 400 { error }', async () => {
    const res = await post('/', ['NOSUCHCOMMAND']);
    expect(res.status).toBe(400);
    expect((await res.json()) as { error: string }).toMatchObject({
      error: expect.stringMatching(/unknown command/i),
    });
    const notArray = await post('/', { cmd: 'GET' });
    expect(notArray.status).toBe(400);
  });

  it('serves /pipeline with a result or an error per command', async () => {
    const res = await post('/pipeline', [
      ['SET', 'p1', 'one'],
      ['INCR', 'p1'],
      ['GET', 'p1'],
    ]);
    expect(res.status).toBe(200);
    const body = (await res.json()) as unknown[];
    expect(body[0]).toEqual({ result: 'OK' });
    expect(body[1]).toMatchObject({ error: expect.stringMatching(/not an integer/) });
    expect(body[2]).toEqual({ result: 'one' });
  });

  it('serves /multi-exec atomically through the real client', async () => {
    const client = new Redis({
      url: getBridge().url,
      token: getBridge().token,
      automaticDeserialization: false,
      enableTelemetry: false,
    });
    const tx = client.multi();
    tx.set('m1', 'a');
    tx.incr('m2');
    tx.get('m1');
    expect(await tx.exec()).toEqual(['OK', 1, 'a']);
    const p = client.pipeline();
    p.get('m1');
    p.del('m1');
    expect(await p.exec()).toEqual(['a', 1]);
    // The client's Script helper: EVALSHA first, EVAL after a NOSCRIPT error, then EVALSHA again.
    const script = client.createScript<string>(`return 'echo:' .. ARGV[1]`);
    expect(await script.exec([], ['x'])).toBe('echo:x');
    expect(await client.scriptLoad(`return 'echo:' .. ARGV[1]`)).toMatch(/^[0-9a-f]{40}$/);
  });
});

describeWithService('redis', 'Upstash REST bridge isolation', () => {
  it('keeps bridges with different key prefixes apart, and clear() empties only its own prefix', async () => {
    const tag = randomBytes(6).toString('hex');
    const a = await startUpstashBridge({ keyPrefix: `chambers-test:${tag}:a:` });
    const b = await startUpstashBridge({ keyPrefix: `chambers-test:${tag}:b:` });
    try {
      const kvA = createUpstashKv({ url: a.url, token: a.token });
      const kvB = createUpstashKv({ url: b.url, token: b.token });
      await kvA.set('shared', 'from-a', LONG_TTL);
      await kvA.set('only-a', 'x', LONG_TTL);
      await kvB.set('shared', 'from-b', LONG_TTL);
      expect(await kvA.get('shared')).toBe('from-a');
      expect(await kvB.get('shared')).toBe('from-b');
      expect(await a.clear()).toBe(2);
      expect(await kvA.get('shared')).toBeNull();
      expect(await kvB.get('shared')).toBe('from-b');
      expect(await b.clear()).toBe(1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    const unprefixed = await startUpstashBridge();
    try {
      await expect(unprefixed.clear()).rejects.toThrow(/keyPrefix/);
    } finally {
      await unprefixed.close();
    }
  });
});
