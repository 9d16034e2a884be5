// Owners and how they sign in to the console: `npm run owner -- add <name>` creates one, `link <name>` mints a
// single-use link with a short expiry. The link is for enrolment and recovery: redeeming it sets the owner's
// password; after that the owner signs in with name and password alone. Either way a server-side session opens
// whose id lives only in an HttpOnly cookie; it ends at logout, after an idle timeout, or at its absolute
// lifetime. Link tokens and session ids are stored as SHA-256, like agent tokens; passwords as PBKDF2
// (src/auth/passwords.ts). Neither ever authenticates /mcp (the guard takes only `chm_` agent tokens).

import {
  hashPassword,
  needsRehash,
  passwordProblem,
  verifyNothing,
  verifyPassword,
} from '../auth/passwords.ts';
import { randomToken, sha256Hex } from '../contract/hash.ts';
import { and, eq, gt, isNull, lte } from '../db/orm.ts';
import {
  type OwnerRow,
  ownerLoginLinks,
  ownerSessions,
  ownerSignInAttempts,
  owners,
} from '../db/schema/owners.ts';
import type { Db } from '../db/types.ts';

/** A login link is good for this long after it is printed, and once. */
export const LOGIN_LINK_TTL_MS = 15 * 60_000;

/** How long sessions last (CONSOLE_SESSION_IDLE_MINUTES, CONSOLE_SESSION_MAX_HOURS in src/config.ts). */
export interface SessionPolicy {
  /** A session with no request for this long is over. */
  idleMs: number;
  /** A session is over this long after sign-in, however busy. */
  maxMs: number;
}
export const DEFAULT_SESSION_POLICY: SessionPolicy = { idleMs: 30 * 60_000, maxMs: 12 * 60 * 60_000 };

/** Failed password sign-ins allowed per name within the window; the next ones wait until the window clears. */
export const SIGN_IN_MAX_FAILURES = 5;
export const SIGN_IN_WINDOW_MS = 15 * 60_000;

/** How often a live session's last_seen_at is written at most (the idle clock's resolution). */
const SEEN_EVERY_MS = 60_000;

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

/** What a link shows before it is used: refused, or the owner it enrols (the form names them). */
export async function lookAtLoginLink(
  db: Db,
  token: string,
  now: Date,
): Promise<{ owner: OwnerRow } | { refused: LoginRefusal }> {
  if (!token.startsWith(LINK_PREFIX) || token.length > 200) return { refused: 'invalid' };
  const row = (
    await db
      .select({ link: ownerLoginLinks, owner: owners })
      .from(ownerLoginLinks)
      .innerJoin(owners, eq(owners.id, ownerLoginLinks.ownerId))
      .where(eq(ownerLoginLinks.tokenHash, sha256Hex(token)))
      .limit(1)
  )[0];
  if (row === undefined) return { refused: 'invalid' };
  if (row.link.usedAt !== null) return { refused: 'used' };
  if (row.link.expiresAt <= now) return { refused: 'expired' };
  if (row.owner.disabledAt !== null) return { refused: 'disabled' };
  return { owner: row.owner };
}

export interface OpenedSession {
  owner: OwnerRow;
  /** The cookie's value; only its hash is stored. */
  session: string;
  expiresAt: Date;
}

async function openSession(
  db: Db,
  owner: OwnerRow,
  now: Date,
  policy: SessionPolicy,
): Promise<OpenedSession> {
  const session = `${SESSION_PREFIX}${randomToken(32)}`;
  const expiresAt = new Date(now.getTime() + policy.maxMs);
  await db
    .insert(ownerSessions)
    .values({ idHash: sha256Hex(session), ownerId: owner.id, createdAt: now, lastSeenAt: now, expiresAt });
  return { owner, session, expiresAt };
}

/**
 * Redeems a link with the password the owner chooses: the password's rules are checked first (a refused
 * password leaves the link unspent), then the link is marked used (once, whoever races), the password set, the
 * name's failed attempts cleared (a recovery also lifts a lockout) and a session opened.
 */
export async function enrolWithLink(
  db: Db,
  token: string,
  password: { password: string; confirmation: string },
  now: Date,
  policy: SessionPolicy,
): Promise<OpenedSession | { refused: LoginRefusal } | { problem: string; owner: OwnerRow }> {
  const look = await lookAtLoginLink(db, token, now);
  if ('refused' in look) return look;
  const problem = passwordProblem(password.password, password.confirmation);
  if (problem !== null) return { problem, owner: look.owner };
  const hash = await hashPassword(password.password);
  const enrolled = await db.transaction(async (tx) => {
    const used = await tx
      .update(ownerLoginLinks)
      .set({ usedAt: now })
      .where(
        and(
          eq(ownerLoginLinks.tokenHash, sha256Hex(token)),
          isNull(ownerLoginLinks.usedAt),
          gt(ownerLoginLinks.expiresAt, now),
        ),
      )
      .returning({ ownerId: ownerLoginLinks.ownerId });
    const link = used[0];
    if (link === undefined) return null;
    const updated = await tx
      .update(owners)
      .set({ passwordHash: hash, passwordSetAt: now })
      .where(and(eq(owners.id, link.ownerId), isNull(owners.disabledAt)))
      .returning();
    const owner = updated[0];
    if (owner !== undefined)
      await tx.delete(ownerSignInAttempts).where(eq(ownerSignInAttempts.name, owner.name));
    return owner ?? 'disabled';
  });
  // Another request spent the link between the look and the update.
  if (enrolled === null) return { refused: 'used' };
  if (enrolled === 'disabled') return { refused: 'disabled' };
  return openSession(db, enrolled, now, policy);
}

export type SignInRefusal = 'wrong' | 'locked';

/**
 * Signs in by name and password. Every attempt is recorded before the password is checked, so parallel
 * guesses count too; past SIGN_IN_MAX_FAILURES within SIGN_IN_WINDOW_MS the name is refused without a check
 * until the oldest attempt leaves the window. A wrong password, an unknown name and a disabled owner get the
 * same answer after the same work. Success clears the name's attempts (and upgrades an old hash).
 */
export async function signInWithPassword(
  db: Db,
  name: string,
  password: string,
  now: Date,
  policy: SessionPolicy,
): Promise<OpenedSession | { refused: SignInRefusal; retryAt?: Date }> {
  const key = name.trim().slice(0, 100);
  const windowStart = new Date(now.getTime() - SIGN_IN_WINDOW_MS);
  await db
    .delete(ownerSignInAttempts)
    .where(and(eq(ownerSignInAttempts.name, key), lte(ownerSignInAttempts.at, windowStart)));
  const attempt = crypto.randomUUID();
  await db.insert(ownerSignInAttempts).values({ id: attempt, name: key, at: now });
  const recent = await db
    .select({ at: ownerSignInAttempts.at })
    .from(ownerSignInAttempts)
    .where(and(eq(ownerSignInAttempts.name, key), gt(ownerSignInAttempts.at, windowStart)))
    .orderBy(ownerSignInAttempts.at);
  if (recent.length > SIGN_IN_MAX_FAILURES) {
    // Not checked, so not a failure: hammering a locked name does not extend its lockout (the owner's
    // recovery link lifts it at once anyway). It opens again when enough failures have left the window.
    await db.delete(ownerSignInAttempts).where(eq(ownerSignInAttempts.id, attempt));
    const failures = recent.length - 1;
    const freeing = recent[failures - SIGN_IN_MAX_FAILURES]?.at ?? now;
    return { refused: 'locked', retryAt: new Date(freeing.getTime() + SIGN_IN_WINDOW_MS) };
  }
  const owner = (await db.select().from(owners).where(eq(owners.name, key)).limit(1))[0];
  if (owner === undefined || owner.disabledAt !== null || owner.passwordHash === null) {
    await verifyNothing(password);
    return { refused: 'wrong' };
  }
  if (!(await verifyPassword(password, owner.passwordHash))) return { refused: 'wrong' };
  await db.delete(ownerSignInAttempts).where(eq(ownerSignInAttempts.name, key));
  if (needsRehash(owner.passwordHash)) {
    await db
      .update(owners)
      .set({ passwordHash: await hashPassword(password) })
      .where(eq(owners.id, owner.id));
  }
  return openSession(db, owner, now, policy);
}

/**
 * The owner of a live session (not ended, within its lifetime, used within the idle timeout, owner not
 * disabled), or null. A live session's last use is recorded, at most once a minute.
 */
export async function ownerForSession(
  db: Db,
  session: string,
  now: Date,
  policy: SessionPolicy,
): Promise<OwnerRow | null> {
  if (!session.startsWith(SESSION_PREFIX) || session.length > 200) return null;
  const idHash = sha256Hex(session);
  const idleSince = new Date(now.getTime() - policy.idleMs);
  const rows = await db
    .select({ owner: owners, createdAt: ownerSessions.createdAt, lastSeenAt: ownerSessions.lastSeenAt })
    .from(ownerSessions)
    .innerJoin(owners, eq(owners.id, ownerSessions.ownerId))
    .where(
      and(
        eq(ownerSessions.idHash, idHash),
        isNull(ownerSessions.endedAt),
        gt(ownerSessions.expiresAt, now),
        gt(ownerSessions.lastSeenAt, idleSince),
        isNull(owners.disabledAt),
      ),
    )
    .limit(1);
  const row = rows[0];
  if (row === undefined) return null;
  // The lifetime is judged by today's setting too, so lowering CONSOLE_SESSION_MAX_HOURS shortens open sessions.
  if (row.createdAt.getTime() + policy.maxMs <= now.getTime()) return null;
  if (now.getTime() - row.lastSeenAt.getTime() >= SEEN_EVERY_MS) {
    await db.update(ownerSessions).set({ lastSeenAt: now }).where(eq(ownerSessions.idHash, idHash));
  }
  return row.owner;
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
