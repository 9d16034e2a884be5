// Owners and how they sign in to the console: `npm run owner -- add <name>` creates one, `link <name>`
// mints a single-use login link with a short expiry; redeeming it opens a server-side session whose id
// lives only in an HttpOnly cookie. Link tokens and session ids are stored as SHA-256, like agent tokens.
// Neither ever authenticates /mcp (the guard takes only `chm_` agent tokens from agent_tokens).

import { randomToken, sha256Hex } from '../contract/hash.ts';
import { and, eq, gt, isNull } from '../db/orm.ts';
import { type OwnerRow, ownerLoginLinks, ownerSessions, owners } from '../db/schema/owners.ts';
import type { Db } from '../db/types.ts';

/** A login link is good for this long after it is printed, and once. */
export const LOGIN_LINK_TTL_MS = 15 * 60_000;
/** A console session ends after this long, or at logout. */
export const SESSION_TTL_MS = 12 * 60 * 60_000;

const LINK_PREFIX = 'chl_';
const SESSION_PREFIX = 'chs_';

/** Letters (any script), digits, and . _ - inside; how the owner appears in the audit log (`owner:<name>`). */
export const OWNER_NAME = /^[\p{L}\p{N}][\p{L}\p{N}._-]{0,62}$/u;

export class OwnerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OwnerError';
  }
}

/** The audit log's name for an owner acting in the console. */
export const ownerPrincipal = (name: string): string => `owner:${name}`;

export async function addOwner(db: Db, name: string): Promise<{ owner: OwnerRow; created: boolean }> {
  if (!OWNER_NAME.test(name)) {
    throw new OwnerError(
      `"${name}" is not a usable owner name: letters and digits, then also . _ - (at most 63 characters)`,
    );
  }
  const inserted = await db
    .insert(owners)
    .values({ id: crypto.randomUUID(), name })
    .onConflictDoNothing()
    .returning();
  if (inserted[0] !== undefined) return { owner: inserted[0], created: true };
  return { owner: await ownerNamed(db, name), created: false };
}

export async function ownerNamed(db: Db, name: string): Promise<OwnerRow> {
  const row = (await db.select().from(owners).where(eq(owners.name, name)).limit(1))[0];
  if (row === undefined)
    throw new OwnerError(`No owner named "${name}" (add one with npm run owner -- add ${name})`);
  return row;
}

export async function listOwners(db: Db): Promise<OwnerRow[]> {
  return db.select().from(owners).orderBy(owners.name);
}

/** Mints a single-use login link token for the owner; only its hash is kept, so it is shown once. */
export async function mintLoginLink(
  db: Db,
  name: string,
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  const owner = await ownerNamed(db, name);
  if (owner.disabledAt !== null) throw new OwnerError(`Owner "${name}" is disabled`);
  const token = `${LINK_PREFIX}${randomToken(32)}`;
  const expiresAt = new Date(now.getTime() + LOGIN_LINK_TTL_MS);
  await db
    .insert(ownerLoginLinks)
    .values({ tokenHash: sha256Hex(token), ownerId: owner.id, createdAt: now, expiresAt });
  return { token, expiresAt };
}

/** The console path a login token opens (the CLI prefixes the server's address). */
export const loginPath = (token: string): string => `/console/login?token=${encodeURIComponent(token)}`;

export type LoginRefusal = 'invalid' | 'expired' | 'used' | 'disabled';

/**
 * Redeems a login link: marks it used (once, whoever races) and opens a session. The session secret is
 * returned for the cookie and never stored.
 */
export async function redeemLoginLink(
  db: Db,
  token: string,
  now: Date,
): Promise<{ owner: OwnerRow; session: string; expiresAt: Date } | { refused: LoginRefusal }> {
  if (!token.startsWith(LINK_PREFIX) || token.length > 200) return { refused: 'invalid' };
  const hash = sha256Hex(token);
  const used = await db
    .update(ownerLoginLinks)
    .set({ usedAt: now })
    .where(
      and(
        eq(ownerLoginLinks.tokenHash, hash),
        isNull(ownerLoginLinks.usedAt),
        gt(ownerLoginLinks.expiresAt, now),
      ),
    )
    .returning({ ownerId: ownerLoginLinks.ownerId });
  const link = used[0];
  if (link === undefined) {
    const row = (
      await db.select().from(ownerLoginLinks).where(eq(ownerLoginLinks.tokenHash, hash)).limit(1)
    )[0];
    if (row === undefined) return { refused: 'invalid' };
    return { refused: row.usedAt !== null ? 'used' : 'expired' };
  }
  const owner = (await db.select().from(owners).where(eq(owners.id, link.ownerId)).limit(1))[0];
  if (owner === undefined || owner.disabledAt !== null) return { refused: 'disabled' };
  const session = `${SESSION_PREFIX}${randomToken(32)}`;
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await db
    .insert(ownerSessions)
    .values({ idHash: sha256Hex(session), ownerId: owner.id, createdAt: now, expiresAt });
  return { owner, session, expiresAt };
}

/** The owner of a live session (not ended, not expired, owner not disabled), or null. */
export async function ownerForSession(db: Db, session: string, now: Date): Promise<OwnerRow | null> {
  if (!session.startsWith(SESSION_PREFIX) || session.length > 200) return null;
  const rows = await db
    .select({ owner: owners })
    .from(ownerSessions)
    .innerJoin(owners, eq(owners.id, ownerSessions.ownerId))
    .where(
      and(
        eq(ownerSessions.idHash, sha256Hex(session)),
        isNull(ownerSessions.endedAt),
        gt(ownerSessions.expiresAt, now),
        isNull(owners.disabledAt),
      ),
    )
    .limit(1);
  return rows[0]?.owner ?? null;
}

/** Logout: the session ends on the server, so a copied cookie is worthless afterwards. */
export async function endSession(db: Db, session: string, now: Date): Promise<void> {
  await db
    .update(ownerSessions)
    .set({ endedAt: now })
    .where(and(eq(ownerSessions.idHash, sha256Hex(session)), isNull(ownerSessions.endedAt)));
}

/**
 * The session's CSRF token: derived from the session secret (which only the cookie holds), so a page of
 * another origin can neither read nor compute it, and nothing extra is stored.
 */
export const csrfTokenFor = (session: string): string => sha256Hex(`csrf\u0000${session}`);
