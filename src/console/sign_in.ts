// Signing in and out: a single-use link (looking at it spends nothing; posting it signs in once), the session
// cookie, and the middleware that lets only a live session past it.
import type { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { sha256Hex } from '../contract/hash.ts';
import { eq } from '../db/orm.ts';
import { ownerLoginLinks } from '../db/schema/owners.ts';
import { csrfTokenFor, endSession, ownerForSession, redeemLoginLink } from '../owner/accounts.ts';
import { type ConsoleEnv, checked, cookieName, formPost, isLoopback, render } from './http.ts';
import { page } from './layout.ts';
import { loginForm, loginRefused, signedOut } from './pages/login.ts';

/** The sign-in routes, then the session check every later route of `con` passes, then sign-out. */
export function signInRoutes(con: Hono<ConsoleEnv>, o: { now(): Date }): void {
  con.get('/login', async (c) => {
    const token = c.req.query('token') ?? '';
    // Only looks: the link is used by the POST, so a preview fetch of the URL spends nothing.
    const row = token.startsWith('chl_')
      ? (
          await c
            .get('services')
            .db.select()
            .from(ownerLoginLinks)
            .where(eq(ownerLoginLinks.tokenHash, sha256Hex(token)))
            .limit(1)
        )[0]
      : undefined;
    const now = o.now();
    const why =
      row === undefined ? 'invalid' : row.usedAt !== null ? 'used' : row.expiresAt <= now ? 'expired' : null;
    if (why !== null) return render(c, 'כניסה למסוף', loginRefused(why), {}, why === 'invalid' ? 400 : 410);
    return render(c, 'כניסה למסוף', loginForm(token));
  });

  con.post('/login', formPost, async (c) => {
    const redeemed = await redeemLoginLink(c.get('services').db, c.get('form').token ?? '', o.now());
    if ('refused' in redeemed) {
      return render(
        c,
        'כניסה למסוף',
        loginRefused(redeemed.refused),
        {},
        redeemed.refused === 'invalid' ? 400 : 410,
      );
    }
    setCookie(c, cookieName(c), redeemed.session, {
      path: '/',
      httpOnly: true,
      secure: !isLoopback(c),
      sameSite: 'Strict',
      expires: redeemed.expiresAt,
    });
    c.get('log').info('owner signed in', { owner: redeemed.owner.name });
    return c.redirect('/console', 303);
  });

  // Everything below needs a live session.
  con.use('*', async (c, next) => {
    const session = getCookie(c, cookieName(c));
    const owner =
      session === undefined ? null : await ownerForSession(c.get('services').db, session, o.now());
    if (session === undefined || owner === null) {
      return render(c, 'נדרשת כניסה', signedOut('כדי להיכנס למסוף צריך קישור כניסה.'), {}, 401);
    }
    c.set('owner', owner);
    c.set('session', session);
    c.set('csrf', csrfTokenFor(session));
    await next();
  });

  con.post('/logout', formPost, checked, async (c) => {
    await endSession(c.get('services').db, c.get('session'), o.now());
    deleteCookie(c, cookieName(c), { path: '/', secure: !isLoopback(c) });
    return c.html(page('יצאת מהמסוף', { owner: null }, signedOut('החיבור הסתיים.')));
  });
}
