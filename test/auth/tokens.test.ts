// Bearer tokens: only the SHA-256 is stored, a token names one agent, a revoked token stops working.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentForTokenHash, mintToken, plausibleToken, tokenHash } from '../../src/auth/tokens.ts';
import { agentTokens } from '../../src/db/schema/agent_tokens.ts';
import { createTestDb, type TestDb } from '../harness/databases.ts';

describe('agent tokens', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb('pglite');
  });
  afterAll(async () => db?.close());

  it('stores only the hash and finds the agent by it', async () => {
    const token = await mintToken(db.db, 'writer', 'test');
    expect(plausibleToken(token)).toBe(true);
    const rows = await db.db.select().from(agentTokens);
    expect(rows.map((r) => r.tokenHash)).toContain(tokenHash(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(await agentForTokenHash(db.db, tokenHash(token))).toBe('writer');
  });

  it('refuses unknown, malformed and revoked tokens', async () => {
    expect(await agentForTokenHash(db.db, tokenHash('chm_not-a-real-token'))).toBeNull();
    expect(plausibleToken('Bearer-ish')).toBe(false);
    expect(plausibleToken(`chm_${'x'.repeat(300)}`)).toBe(false);
    const token = await mintToken(db.db, 'qa');
    const hash = tokenHash(token);
    expect(await agentForTokenHash(db.db, hash)).toBe('qa');
    await db.db.update(agentTokens).set({ revokedAt: new Date() }).where(eq(agentTokens.tokenHash, hash));
    expect(await agentForTokenHash(db.db, hash)).toBeNull();
  });

  it('mints a distinct token every time', async () => {
    const a = await mintToken(db.db, 'ceo');
    const b = await mintToken(db.db, 'ceo');
    expect(a).not.toBe(b);
    expect(await agentForTokenHash(db.db, tokenHash(b))).toBe('ceo');
  });
});
