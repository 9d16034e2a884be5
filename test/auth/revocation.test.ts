/**
 * Token administration on a running server: a revoked token is refused on the very next call, also while
 * its answer is cached (AUTH_CACHE=process) — revokeTokens in this process empties the cache; with
 * AUTH_CACHE=off even a revocation this process never saw (another process's, here a bare UPDATE) is
 * refused at once. An expiring token is refused at its expiry even while cached; the list shows ids and dates,
 * never a token or its hash. The clock is moved, nothing sleeps.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_CACHE_MS } from '../../src/auth/token_cache.ts';
import { listTokens, mintToken, mintTokenWithId, revokeTokens, tokenHash } from '../../src/auth/tokens.ts';
import { agentTokens } from '../../src/db/schema/agent_tokens.ts';
import { type Clock, movableClock } from '../functions/hai/_hai.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { describeWithService } from '../harness/services.ts';

const listCall = (s: TestServer, token: string) =>
  s.fetch('/v1/tools', { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.status);

/** A revocation made behind this process's back, as another process's `npm run token -- revoke` would be. */
const revokeElsewhere = (s: TestServer, id: string, at: Date) =>
  s.db.db.update(agentTokens).set({ revokedAt: at }).where(eq(agentTokens.id, id));

function suite(db: 'pglite' | 'postgres') {
  let s: TestServer;
  let clock: Clock;
  /** Statements that looked a token up, since the last reset. */
  let lookups = 0;
  beforeAll(async () => {
    clock = movableClock();
    s = await startTestServer({
      db,
      now: clock.now,
      onQuery: (sql) => {
        if (/agent_tokens/.test(sql)) lookups++;
      },
    });
  });
  afterAll(async () => s?.close());

  it('a cached token costs no lookup, and is refused on the very next call once revoked', async () => {
    const { token, id } = await mintTokenWithId(s.db.db, 'analyst', { label: 'revocation test' });
    expect(await listCall(s, token)).toBe(200);
    lookups = 0;
    expect(await listCall(s, token)).toBe(200);
    expect(lookups).toBe(0);
    expect(await revokeTokens(s.db.db, id, clock.now())).toEqual([id]);
    expect(await listCall(s, token)).toBe(401);
    // A token revoked before it was ever used is refused too.
    const fresh = await mintTokenWithId(s.db.db, 'analyst');
    await revokeTokens(s.db.db, fresh.id, clock.now());
    expect(await listCall(s, fresh.token)).toBe(401);
  });

  it('a revocation this process never saw is honoured when the cache lifetime ends', async () => {
    const { token, id } = await mintTokenWithId(s.db.db, 'analyst');
    expect(await listCall(s, token)).toBe(200);
    await revokeElsewhere(s, id, clock.now());
    // Inside the lifetime the cached answer stands: the documented bound of AUTH_CACHE=process.
    clock.advance(AUTH_CACHE_MS - 1_000);
    expect(await listCall(s, token)).toBe(200);
    clock.advance(2_000);
    expect(await listCall(s, token)).toBe(401);
  });

  it('an expiring token is refused at its expiry, even inside the cache lifetime', async () => {
    const token = await mintToken(s.db.db, 'qa', { expiresAt: new Date(clock.now().getTime() + 5_000) });
    expect(await listCall(s, token)).toBe(200);
    clock.advance(4_000);
    expect(await listCall(s, token)).toBe(200);
    clock.advance(2_000);
    expect(await listCall(s, token)).toBe(401);
  });

  it('revoking by agent revokes every live token of that agent, and only those, at once', async () => {
    const w1 = await mintToken(s.db.db, 'writer');
    const w2 = await mintToken(s.db.db, 'writer');
    const r = await mintToken(s.db.db, 'researcher');
    for (const t of [w1, w2, r]) expect(await listCall(s, t)).toBe(200);
    const revoked = await revokeTokens(s.db.db, 'writer', clock.now());
    // The harness's own writer token, and the two above.
    expect(revoked).toHaveLength(3);
    expect(await revokeTokens(s.db.db, 'writer', clock.now())).toEqual([]);
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

/** AUTH_CACHE=off (Workers, npm start on DATABASE_URL): every call looks its token up. */
function uncached(db: 'pglite' | 'postgres') {
  let s: TestServer;
  let lookups = 0;
  beforeAll(async () => {
    s = await startTestServer({
      db,
      env: { AUTH_CACHE: 'off' },
      onQuery: (sql) => {
        if (/agent_tokens/.test(sql)) lookups++;
      },
    });
  });
  afterAll(async () => s?.close());

  it('refuses a token on the very next call after another process revoked it', async () => {
    const { token, id } = await mintTokenWithId(s.db.db, 'analyst');
    expect(await listCall(s, token)).toBe(200);
    lookups = 0;
    expect(await listCall(s, token)).toBe(200);
    expect(lookups).toBe(1);
    await revokeElsewhere(s, id, new Date());
    expect(await listCall(s, token)).toBe(401);
  });
}

describe('token revocation and expiry [pglite]', () => suite('pglite'));
describeWithService('postgres', 'token revocation and expiry [postgres]', () => suite('postgres'));
describe('token revocation without the token cache [pglite]', () => uncached('pglite'));
describeWithService('postgres', 'token revocation without the token cache [postgres]', () =>
  uncached('postgres'),
);
