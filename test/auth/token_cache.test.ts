// The guard's token cache on its own: a hit, the size bound (least recently used first out), the lifetime and
// a token's expiry, and any revocation in this process making every entry stale.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenCache } from '../../src/auth/token_cache.ts';
import { revocationGeneration, revokeTokens } from '../../src/auth/tokens.ts';
import { createTestDb, type TestDb } from '../harness/databases.ts';

const at = 1_700_000_000_000;
const live = (agent: string) => ({ agent, expiresAt: null });

describe('the token cache', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb('pglite');
  });
  afterAll(async () => db?.close());

  it('answers a cached hash until its lifetime ends', () => {
    const cache = new TokenCache({ ttlMs: 1_000 });
    expect(cache.get('h1', at)).toBeNull();
    cache.set('h1', live('writer'), at, revocationGeneration());
    expect(cache.get('h1', at + 999)).toBe('writer');
    expect(cache.get('h1', at + 1_000)).toBeNull();
    // A stale entry is dropped, not kept.
    expect(cache.has('h1')).toBe(false);
  });

  it('keeps at most maxEntries, evicting the least recently used', () => {
    const cache = new TokenCache({ maxEntries: 2 });
    const g = revocationGeneration();
    cache.set('a', live('writer'), at, g);
    cache.set('b', live('qa'), at, g);
    // Reading a makes b the least recently used.
    expect(cache.get('a', at)).toBe('writer');
    cache.set('c', live('ceo'), at, g);
    expect(cache.size).toBe(2);
    expect(cache.has('b')).toBe(false);
    expect(cache.get('a', at)).toBe('writer');
    expect(cache.get('c', at)).toBe('ceo');
  });

  it('caches an expiring token no longer than its expiry', () => {
    const cache = new TokenCache({ ttlMs: 60_000 });
    cache.set('h', { agent: 'qa', expiresAt: new Date(at + 500) }, at, revocationGeneration());
    expect(cache.get('h', at + 499)).toBe('qa');
    expect(cache.get('h', at + 500)).toBeNull();
  });

  it('drops every entry made before a revocation in this process, and entries whose lookup it overlapped', async () => {
    const cache = new TokenCache();
    const before = revocationGeneration();
    cache.set('old', live('writer'), at, before);
    expect(cache.get('old', at)).toBe('writer');
    // Nothing needs to match: any completed revocation counts.
    await revokeTokens(db.db, 'writer');
    expect(revocationGeneration()).toBe(before + 1);
    expect(cache.get('old', at)).toBeNull();
    // A lookup that began before the revocation and finished after it is not trusted either.
    cache.set('racing', live('qa'), at, before);
    expect(cache.get('racing', at)).toBeNull();
    cache.set('new', live('qa'), at, revocationGeneration());
    expect(cache.get('new', at)).toBe('qa');
  });
});
