import { one } from '../contract/errors.ts';
import { randomToken, sha256Hex } from '../contract/hash.ts';
import { and, desc, eq, gt, isNull, or, sql } from '../db/orm.ts';
import { agentTokens } from '../db/schema/agent_tokens.ts';
import { type Db, rowsOf } from '../db/types.ts';

const TOKEN_PREFIX = 'chm_';

/** How often `last_used_at` is written at most: one write a minute per token, not one per request. */
const LAST_USED_EVERY_MS = 60_000;

export interface MintOptions {
  /** Where it was minted ('npm run token', 'first start'...), shown by `token list`. */
  label?: string;
  /** The token opens nothing from this moment on; none: it lasts until revoked. */
  expiresAt?: Date;
}

/** Mints a bearer token for `agent`; only its SHA-256 is stored, so the token is shown once. */
export async function mintToken(db: Db, agent: string, label?: string | MintOptions): Promise<string> {
  return (await mintTokenWithId(db, agent, typeof label === 'string' ? { label } : (label ?? {}))).token;
}

/** Mints a token and returns it with the id that `token list` and `token revoke` name it by. */
export async function mintTokenWithId(
  db: Db,
  agent: string,
  options: MintOptions = {},
): Promise<{ token: string; id: string }> {
  const token = `${TOKEN_PREFIX}${randomToken(32)}`;
  const row = one(
    await db
      .insert(agentTokens)
      .values({
        tokenHash: sha256Hex(token),
        agent,
        label: options.label ?? null,
        expiresAt: options.expiresAt ?? null,
      })
      .returning({ id: agentTokens.id }),
    'minting a token',
  );
  return { token, id: row.id };
}

/** The SHA-256 a token is stored and cached under; the secret itself is never kept or compared. */
export const tokenHash = (token: string): string => sha256Hex(token);

const usable = (now: Date) =>
  and(isNull(agentTokens.revokedAt), or(isNull(agentTokens.expiresAt), gt(agentTokens.expiresAt, now)));

/** The agent a token belongs to, or null; looked up by the SHA-256 of the presented token, never the secret. */
export async function agentForTokenHash(db: Db, hash: string, now = new Date()): Promise<string | null> {
  const rows = await db
    .select({ agent: agentTokens.agent })
    .from(agentTokens)
    .where(and(eq(agentTokens.tokenHash, hash), usable(now)))
    .limit(1);
  return rows[0]?.agent ?? null;
}

/**
 * What the guard asks on a cache miss: the agent of a live (unrevoked, unexpired at `now`) token and its
 * expiry, in one statement that also notes the use when `last_used_at` is older than a minute.
 */
export async function authenticateTokenHash(
  db: Db,
  hash: string,
  now: Date,
): Promise<{ agent: string; expiresAt: Date | null } | null> {
  const stale = new Date(now.getTime() - LAST_USED_EVERY_MS);
  const result = await db.execute(sql`
    with t as (
      select token_hash, agent, expires_at, last_used_at from agent_tokens
      where token_hash = ${hash} and revoked_at is null
        and (expires_at is null or expires_at > ${now.toISOString()}::timestamptz)
    ), touched as (
      update agent_tokens set last_used_at = ${now.toISOString()}::timestamptz
      from t where agent_tokens.token_hash = t.token_hash
        and (t.last_used_at is null or t.last_used_at < ${stale.toISOString()}::timestamptz)
      returning 1
    )
    select agent, expires_at from t`);
  const row = rowsOf<{ agent: string; expires_at: string | Date | null }>(result)[0];
  if (row === undefined) return null;
  return { agent: row.agent, expiresAt: row.expires_at === null ? null : new Date(row.expires_at) };
}

/** A token that cannot be one of ours is refused before any hashing or lookup. */
export const plausibleToken = (token: string): boolean =>
  token.startsWith(TOKEN_PREFIX) && token.length <= 200;

export async function hasAnyToken(db: Db): Promise<boolean> {
  const rows = await db.select({ agent: agentTokens.agent }).from(agentTokens).limit(1);
  return rows.length > 0;
}

/** A token as `npm run token -- list` shows it: never the token, never its hash. */
export interface TokenInfo {
  id: string;
  agent: string;
  label: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** Every token, newest first (revoked and expired ones too: the list is the record of who had access). */
export async function listTokens(db: Db): Promise<TokenInfo[]> {
  return db
    .select({
      id: agentTokens.id,
      agent: agentTokens.agent,
      label: agentTokens.label,
      createdAt: agentTokens.createdAt,
      expiresAt: agentTokens.expiresAt,
      lastUsedAt: agentTokens.lastUsedAt,
      revokedAt: agentTokens.revokedAt,
    })
    .from(agentTokens)
    .orderBy(desc(agentTokens.createdAt), agentTokens.id);
}

/**
 * Counts the revocations made by this process. The guard's token cache (token_cache.ts) notes it with every
 * entry and drops entries made before a later revocation, so a token revoked here is refused on the very next
 * call. A counter, not request state: it names no token and no request.
 */
let revocations = 0;

/** The number of revokeTokens calls completed in this process (see `revocations`). */
export const revocationGeneration = (): number => revocations;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Revokes one token by id, or every live token of an agent by its name; returns the ids revoked now
 * (an already revoked token is left as it was). This process refuses them on the next call (its token cache
 * is emptied); other processes as their AUTH_CACHE setting says (docs/operations.md "Token cache").
 */
export async function revokeTokens(db: Db, idOrAgent: string, now = new Date()): Promise<string[]> {
  const target = UUID.test(idOrAgent) ? eq(agentTokens.id, idOrAgent) : eq(agentTokens.agent, idOrAgent);
  const rows = await db
    .update(agentTokens)
    .set({ revokedAt: now })
    .where(and(target, isNull(agentTokens.revokedAt)))
    .returning({ id: agentTokens.id });
  // After the UPDATE: a lookup that read the row before it noted the older generation, so its entry is stale.
  // (Inside a caller's transaction this runs before the commit; nothing in the repo revokes that way.)
  revocations++;
  return rows.map((r) => r.id);
}
