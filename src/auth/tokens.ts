import { and, eq, isNull } from 'drizzle-orm';
import { randomToken, sha256Hex } from '../contract/hash.ts';
import { agentTokens } from '../db/schema/agent_tokens.ts';
import type { Db } from '../db/types.ts';

const TOKEN_PREFIX = 'chm_';

/** Mints a bearer token for `agent`; only its SHA-256 is stored, so the token is shown once. */
export async function mintToken(db: Db, agent: string, label?: string): Promise<string> {
  const token = `${TOKEN_PREFIX}${randomToken(32)}`;
  await db.insert(agentTokens).values({ tokenHash: await sha256Hex(token), agent, label: label ?? null });
  return token;
}

/**
 * The agent a token belongs to, or null. The lookup is by SHA-256 of the presented token, so the
 * comparison never runs over the secret itself (timing reveals nothing about a valid token).
 */
export async function agentForToken(db: Db, token: string): Promise<string | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
  const rows = await db
    .select({ agent: agentTokens.agent })
    .from(agentTokens)
    .where(and(eq(agentTokens.tokenHash, await sha256Hex(token)), isNull(agentTokens.revokedAt)))
    .limit(1);
  return rows[0]?.agent ?? null;
}

export async function hasAnyToken(db: Db): Promise<boolean> {
  const rows = await db.select({ agent: agentTokens.agent }).from(agentTokens).limit(1);
  return rows.length > 0;
}
