/**
 * Token administration on a running server: a revoked token is refused once the token cache's lifetime has
 * passed (the clock is moved, nothing sleeps), an expiring token is refused at its expiry even while cached,
 * and the list shows ids and dates, never a token or its hash.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTokens, mintToken, mintTokenWithId, revokeTokens, tokenHash } from '../../src/auth/tokens.ts';
import { AUTH_CACHE_MS } from '../../src/http/middleware/guard.ts';
import { type Clock, movableClock } from '../functions/hai/_hai.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { describeWithService } from '../harness/services.ts';

const listCall = (s: TestServer, token: string) =>
  s.fetch('/v1/tools', { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.status);

function suite(db: 'pglite' | 'postgres') {
  let s: TestServer;
  let clock: Clock;
  beforeAll(async () => {
    clock = movableClock();
    s = await startTestServer({ db, now: clock.now });
  });
  afterAll(async () => s?.close());

  it('a revoked token still opens the server within the cache lifetime, and is refused after it', async () => {
    const { token, id } = await mintTokenWithId(s.db.db, 'analyst', { label: 'revocation test' });
    expect(await listCall(s, token)).toBe(200);
    expect(await revokeTokens(s.db.db, id, clock.now())).toEqual([id]);
    // Cached in this process: the revocation is not seen yet, as documented (README "Security notes").
    clock.advance(AUTH_CACHE_MS - 1_000);
    expect(await listCall(s, token)).toBe(200);
    clock.advance(2_000);
    expect(await listCall(s, token)).toBe(401);
    // A token revoked before it was ever used is refused at once.
    const fresh = await mintTokenWithId(s.db.db, 'analyst');
    await revokeTokens(s.db.db, fresh.id, clock.now());
    expect(await listCall(s, fresh.token)).toBe(401);
  });

  it('an expiring token is refused at its expiry, even inside the cache lifetime', async () => {
    const token = await mintToken(s.db.db, 'qa', { expiresAt: new Date(clock.now().getTime() + 10_000) });
    expect(await listCall(s, token)).toBe(200);
    clock.advance(9_000);
    expect(await listCall(s, token)).toBe(200);
    clock.advance(2_000);
    expect(await listCall(s, token)).toBe(401);
  });

  it('revoking by agent revokes every live token of that agent, and only those', async () => {
    const w1 = await mintToken(s.db.db, 'writer');
    const w2 = await mintToken(s.db.db, 'writer');
    const r = await mintToken(s.db.db, 'researcher');
    const revoked = await revokeTokens(s.db.db, 'writer', clock.now());
    // The harness's own writer token, and the two above.
    expect(revoked).toHaveLength(3);
    expect(await revokeTokens(s.db.db, 'writer', clock.now())).toEqual([]);
    clock.advance(AUTH_CACHE_MS + 1_000);
    expect(await listCall(s, w1)).toBe(401);
    expect(await listCall(s, w2)).toBe(401);
    expect(await listCall(s, r)).toBe(200);
  });

  it('lists id, agent, created, last used and expiry, never the token or its hash', async () => {
    const { token, id } = await mintTokenWithId(s.db.db, 'ceo', { label: 'listed' });
    const before = (await listTokens(s.db.db)).find((t) => t.id === id);
    expect(before).toMatchObject({ id, agent: 'ceo', label: 'listed', lastUsedAt: null, revokedAt: null });
    expect(await listCall(s, token)).toBe(200);
    const after = (await listTokens(s.db.db)).find((t) => t.id === id);
    expect(after?.lastUsedAt).toBeInstanceOf(Date);
    const text = JSON.stringify(await listTokens(s.db.db));
    expect(text).not.toContain(token);
    expect(text).not.toContain(tokenHash(token));
  });
}

describe('token revocation and expiry [pglite]', () => suite('pglite'));
describeWithService('postgres', 'token revocation and expiry [postgres]', () => suite('postgres'));
