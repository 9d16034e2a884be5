import { and, eq, isNull } from 'drizzle-orm';
import { randomToken, sha256Hex } from '../contract/hash.ts';
import { agentTokens } from '../db/schema/agent_tokens.ts';
import type { Db } from '../db/types.ts';

const TOKEN_PREFIX = 'chm_';

/** Mints a bearer token for `agent`; only its SHA-256 is stored, so the token is shown once. */
export async function mintToken(db: Db, agent: string, label?: string): Promise<string> {
  const token = `${TOKEN_PREFIX}${randomToken(32)}`;
  await db.insert(agentTokens).values({ tokenHash: sha256Hex(token), agent, label: label ?? null });
  return token;
}

/** The SHA-256 a token is stored and cached under; the secret itself is never kept or compared. */
export const tokenHash = (token: string): string => sha256Hex(token);

/** The agent a token belongs to, or null; looked up by the SHA-256 of the presented token, never the secret. */
export async function agentForTokenHash(db: Db, hash: string): Promise<string | null> {
  const rows = await db
    .select({ agent: agentTokens.agent })
    .from(agentTokens)
    .where(and(eq(agentTokens.tokenHash, hash), isNull(agentTokens.revokedAt)))
    .limit(1);
  return rows[0]?.agent ?? null;
}

/** A token that cannot be one of ours is refused before any hashing or lookup. */
export const plausibleToken = (token: string): boolean =>
  token.startsWith(TOKEN_PREFIX) && token.length <= 200;

export async function hasAnyToken(db: Db): Promise<boolean> {
  const rows = await db.select({ agent: agentTokens.agent }).from(agentTokens).limit(1);
  return rows.length > 0;
}
