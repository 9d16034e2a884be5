// Signing in and out. A single-use link opens the enrolment form (looking at it spends nothing; posting it
// with a new password spends it, sets the password and signs in); after that the owner signs in with name and
// password alone. The session cookie, the middleware that lets only a live session past it (idle timeout and
// absolute lifetime), and logout, which leads back to the sign-in form.
//
// The forms before a session are guarded like the console's others: this origin only (formPost), and a CSRF
// token, here bound to a pre-session cookie (double submit), since there is no session to derive it from.
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { constantTimeEqual, randomToken, sha256Hex } from '../contract/hash.ts';
import {
  csrfTokenFor,
  endSession,
  enrolWithLink,
  lookAtLoginLink,
  type OpenedSession,
  ownerForSession,
  type SessionPolicy,
  signInWithPassword,
} from '../owner/accounts.ts';
import {
  type ConsoleContext,
  type ConsoleEnv,
  checked,
  cookieName,
  formPost,
  isLoopback,
  render,
} from './http.ts';
import { type Html, when } from './layout.ts';
import { enrolForm, loginRefused, notice, refusal, signInForm } from './pages/login.ts';

const TITLE = 'כניסה למסוף';

/** The pre-session cookie (`__Host-` over HTTPS, like the session's). */
const preCookieName = (c: Context) => (isLoopback(c) ? 'chambers_signin' : '__Host-chambers_signin');
const PRE_PREFIX = 'chp_';
const preCsrf = (secret: string) => sha256Hex(`signin-csrf\u0000${secret}`);

/** The sign-in forms' CSRF token: the pre-session cookie's (kept if the browser has one, so open tabs agree). */
function signInCsrf(c: ConsoleContext): string {
  let secret = getCookie(c, preCookieName(c));
  if (secret === undefined || !secret.startsWith(PRE_PREFIX) || secret.length > 100) {
    secret = `${PRE_PREFIX}${randomToken(24)}`;
    setCookie(c, preCookieName(c), secret, {
      path: '/',
      httpOnly: true,
      secure: !isLoopback(c),
      sameSite: 'Strict',
    });
  }
  return preCsrf(secret);
}

/** A sign-in form post carries the pre-session cookie's token; without it nothing is tried. */
const signInChecked: MiddlewareHandler<ConsoleEnv> = async (c, next) => {
  const secret = getCookie(c, preCookieName(c)) ?? '';
  const given = c.get('form').csrf ?? '';
  if (secret === '' || !constantTimeEqual(given, preCsrf(secret))) {
    return signInPage(
      c,
      [refusal('הטופס אינו תקף (חסר אסימון אבטחה). נסו שוב בטופס שלמטה.')],
      403,
      c.get('form').name,
    );
  }
  await next();
};

/** The sign-in form under `before` (a refusal, a notice), with `title` and `status`. */
function signInPage(
  c: ConsoleContext,
  before: Html[],
  status: 200 | 400 | 401 | 403 | 410 | 429,
  name?: string,
  title = TITLE,
) {
  const csrf = signInCsrf(c);
  const form = signInForm({ csrf, ...(name === undefined ? {} : { name }) });
  // No owner in the shell: after logout the page is what a visitor without a session sees.
  return render(c, title, [...before, form], { owner: null }, status);
}

/** The session cookie: HttpOnly, SameSite=Strict, Secure except on loopback, gone at the session's lifetime. */
function startSession(c: ConsoleContext, opened: OpenedSession, how: 'link' | 'password') {
  setCookie(c, cookieName(c), opened.session, {
    path: '/',
    httpOnly: true,
    secure: !isLoopback(c),
    sameSite: 'Strict',
    expires: opened.expiresAt,
  });
  deleteCookie(c, preCookieName(c), { path: '/', secure: !isLoopback(c) });
  c.get('log').info('owner signed in', { owner: opened.owner.name, by: how });
  return c.redirect('/console', 303);
}

/** The sign-in routes, then the session check every later route of `con` passes, then sign-out. */
export function signInRoutes(con: Hono<ConsoleEnv>, o: { now(): Date; session: SessionPolicy }): void {
  con.get('/login', async (c) => {
    const token = c.req.query('token');
    if (token === undefined) return signInPage(c, [], 200);
    // Only looks: the link is spent by the POST, so a preview fetch of the URL spends nothing.
    const look = await lookAtLoginLink(c.get('services').db, token, o.now());
    if ('refused' in look) {
      return render(
        c,
        TITLE,
        loginRefused(look.refused, signInCsrf(c)),
        {},
        look.refused === 'invalid' ? 400 : 410,
      );
    }
    const csrf = signInCsrf(c);
    return render(
      c,
      look.owner.passwordHash === null ? 'הגדרת סיסמה' : 'הגדרת סיסמה חדשה',
      enrolForm({ token, csrf, name: look.owner.name, renewing: look.owner.passwordHash !== null }),
    );
  });

  con.post('/login', formPost, signInChecked, async (c) => {
    const db = c.get('services').db;
    const f = c.get('form');
    if (f.token !== undefined) {
      const enrolled = await enrolWithLink(
        db,
        f.token,
        { password: f.password ?? '', confirmation: f.confirm ?? '' },
        o.now(),
        o.session,
      );
      if ('refused' in enrolled) {
        return render(
          c,
          TITLE,
          loginRefused(enrolled.refused, signInCsrf(c)),
          {},
          enrolled.refused === 'invalid' ? 400 : 410,
        );
      }
      if ('problem' in enrolled) {
        const renewing = enrolled.owner.passwordHash !== null;
        return render(
          c,
          renewing ? 'הגדרת סיסמה חדשה' : 'הגדרת סיסמה',
          [
            refusal(enrolled.problem),
            enrolForm({ token: f.token, csrf: signInCsrf(c), name: enrolled.owner.name, renewing }),
          ],
          {},
          400,
        );
      }
      return startSession(c, enrolled, 'link');
    }
    const name = (f.name ?? '').trim();
    const signedIn = await signInWithPassword(db, name, f.password ?? '', o.now(), o.session);
    if ('refused' in signedIn) {
      // Not the typed name: a password typed into the name field must not reach the log.
      c.get('log').info('owner sign-in refused', { why: signedIn.refused });
      const text =
        signedIn.refused === 'locked'
          ? `הכניסה בשם הזה נחסמה זמנית אחרי כמה ניסיונות שגויים. אפשר לנסות שוב אחרי ${when(signedIn.retryAt)}, או להיכנס בקישור הגדרה חדש.`
          : 'שם המשתמש או הסיסמה שגויים.';
      return signInPage(c, [refusal(text)], signedIn.refused === 'locked' ? 429 : 401, name);
    }
    return startSession(c, signedIn, 'password');
  });

  // Everything below needs a live session.
  con.use('*', async (c, next) => {
    const session = getCookie(c, cookieName(c));
    const owner =
      session === undefined ? null : await ownerForSession(c.get('services').db, session, o.now(), o.session);
    if (session === undefined || owner === null) {
      if (session !== undefined) deleteCookie(c, cookieName(c), { path: '/', secure: !isLoopback(c) });
      const why =
        session === undefined
          ? 'כדי להמשיך יש להיכנס.'
          : 'החיבור הסתיים (לא היה בו שימוש זמן מה, או שעבר הזמן המרבי שלו). היכנסו שוב.';
      return signInPage(c, [notice(why)], 401, undefined, 'נדרשת כניסה');
    }
    c.set('owner', owner);
    c.set('session', session);
    c.set('csrf', csrfTokenFor(session));
    await next();
  });

  con.post('/logout', formPost, checked, async (c) => {
    await endSession(c.get('services').db, c.get('session'), o.now());
    deleteCookie(c, cookieName(c), { path: '/', secure: !isLoopback(c) });
    c.get('log').info('owner signed out', { owner: c.get('owner').name });
    // The page is the sign-in form, as a visitor without a session sees it.
    return signInPage(c, [notice('יצאת מהמסוף. כדי לחזור, היכנסו שוב.')], 200, undefined, 'יצאת מהמסוף');
  });
}
