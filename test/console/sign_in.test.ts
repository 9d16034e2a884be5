// Signing in without an operator, over HTTP: the link enrols (sets a password) once, then name and password
// alone sign in; wrong passwords, the per-name lockout, the password rules, recovery by a new link, the idle
// timeout and the absolute lifetime (on a movable clock and short settings, never by sleeping), logout back to
// the sign-in form, and the forms' CSRF and Origin checks. On PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, PBKDF2_ITERATIONS } from '../../src/auth/passwords.ts';
import { eq } from '../../src/db/orm.ts';
import { ownerSignInAttempts, owners } from '../../src/db/schema/owners.ts';
import {
  addOwner,
  loginPath,
  mintLoginLink,
  SIGN_IN_MAX_FAILURES,
  SIGN_IN_WINDOW_MS,
} from '../../src/owner/accounts.ts';
import {
  enrolByLink,
  openSignInForm,
  postPassword,
  sessionCookie,
  sessionFrom,
  signInOwner,
  signInWithPassword,
  TEST_PASSWORD,
} from '../harness/owner.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { describeWithService } from '../harness/services.ts';

const IDLE_MINUTES = 10;
const MAX_HOURS = 2;
const MINUTE = 60_000;

const stacks = [{ db: 'pglite' }, { db: 'postgres' }] as const;

for (const stack of stacks) {
  const suite = () => {
    let s: TestServer;
    let offset = 0;
    const now = () => new Date(Date.now() + offset);
    const advance = (ms: number) => {
      offset += ms;
    };
    let n = 0;
    /** An owner no other test uses, with a fresh link. */
    const newOwner = async (what: string) => {
      const name = `${what}-${++n}`;
      await addOwner(s.db.db, name);
      return { name, token: (await mintLoginLink(s.db.db, name, now())).token };
    };
    const ownerRow = async (name: string) =>
      (await s.db.db.select().from(owners).where(eq(owners.name, name)))[0];
    const textOf = async (res: Response) => res.text();

    beforeAll(async () => {
      s = await startTestServer({
        db: stack.db,
        now,
        env: {
          CONSOLE_SESSION_IDLE_MINUTES: String(IDLE_MINUTES),
          CONSOLE_SESSION_MAX_HOURS: String(MAX_HOURS),
        },
      });
    });
    afterAll(async () => s?.close());

    it('the link enrols once; logout leads to the sign-in form; the password alone signs in again', async () => {
      const { name, token } = await newOwner('chair');
      const page = await s.fetch(loginPath(token));
      const html = await textOf(page);
      expect(html).toMatch(/^<!doctype html>\n<html lang="he" dir="rtl">/);
      expect(html).toContain('<title>הגדרת סיסמה');
      expect(html).toContain('autocomplete="new-password"');
      expect(html).toContain(`value="${name}" readonly`);
      const enrolled = await enrolByLink(s, token);
      expect([enrolled.status, enrolled.headers.get('location')]).toEqual([303, '/console']);
      // The password is kept as PBKDF2 with its parameters and salt, never as itself.
      const row = await ownerRow(name);
      expect(row?.passwordHash).toMatch(
        new RegExp(`^pbkdf2-sha256\\$${PBKDF2_ITERATIONS}\\$[\\w-]{22}\\$[\\w-]{43}$`),
      );
      expect(row?.passwordHash).not.toContain(TEST_PASSWORD);
      expect(row?.passwordSetAt).toBeInstanceOf(Date);
      // The link was spent: posting it again enrols no one.
      const again = await (await openSignInForm(s)).post({
        token,
        password: 'x'.repeat(20),
        confirm: 'x'.repeat(20),
      });
      expect(again.status).toBe(410);

      const session = sessionFrom(s, name, enrolled);
      expect((await session.get('/console')).status).toBe(200);
      const out = await session.post('/console/logout', {});
      expect(out.status).toBe(200);
      const outHtml = await textOf(out);
      expect(outHtml).toMatch(/^<!doctype html>\n<html lang="he" dir="rtl">/);
      expect(outHtml).toContain('<form class="signin" method="post" action="/console/login">');
      expect(outHtml).toContain('יצאת מהמסוף');
      expect(outHtml).not.toContain('npm run');
      expect((await session.get('/console')).status).toBe(401);

      const back = await signInWithPassword(s, name);
      expect((await back.get('/console/approvals')).status).toBe(200);
    });

    it('a page without a session is the Hebrew sign-in form, never a command', async () => {
      const res = await s.fetch('/console/missions');
      expect(res.status).toBe(401);
      const html = await textOf(res);
      expect(html).toMatch(/^<!doctype html>\n<html lang="he" dir="rtl">/);
      expect(html).toContain('autocomplete="current-password"');
      expect(html).not.toContain('npm run');
      const form = await s.fetch('/console/login');
      expect(form.status).toBe(200);
      expect(form.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(form.headers.get('cache-control')).toBe('no-store');
    });

    it('a short or mistyped password is refused in Hebrew and leaves the link unspent', async () => {
      const { name, token } = await newOwner('rules');
      const form = await openSignInForm(s, loginPath(token));
      const short = await form.post({ token, password: 'קצרה מדי', confirm: 'קצרה מדי' });
      expect(short.status).toBe(400);
      expect(await textOf(short)).toContain('הסיסמה צריכה להיות באורך 12 תווים לפחות');
      const spaces = ' '.repeat(14);
      expect(await textOf(await form.post({ token, password: spaces, confirm: spaces }))).toContain(
        'רווחים בלבד',
      );
      const mistyped = await form.post({ token, password: TEST_PASSWORD, confirm: `${TEST_PASSWORD}!` });
      expect(mistyped.status).toBe(400);
      const html = await textOf(mistyped);
      expect(html).toContain('שתי הסיסמאות שהוקלדו אינן זהות');
      // The form is shown again for the same link.
      expect(html).toContain(`name="token" value="${token}"`);
      expect((await ownerRow(name))?.passwordHash).toBeNull();
      expect((await enrolByLink(s, token)).status).toBe(303);
    });

    it('a wrong password, an unknown name and an owner not enrolled get one answer and no session', async () => {
      const { name } = await newOwner('wrong');
      await signInOwner(s, name, now());
      const { name: fresh } = await newOwner('not-enrolled');
      for (const [who, password] of [
        [name, `${TEST_PASSWORD}x`],
        ['nobody-here', TEST_PASSWORD],
        [fresh, TEST_PASSWORD],
        [name, ''],
      ] as const) {
        const res = await postPassword(s, who, password);
        expect(res.status).toBe(401);
        expect(sessionCookie(res)).toBeUndefined();
        const html = await textOf(res);
        expect(html).toContain('שם המשתמש או הסיסמה שגויים');
        // The name is kept in the form, escaped.
        expect(html).toContain(`value="${who}"`);
      }
      expect((await postPassword(s, name, TEST_PASSWORD)).status).toBe(303);
    });

    it(`after ${SIGN_IN_MAX_FAILURES} wrong passwords the name is locked, even for the right one, until the window passes`, async () => {
      const { name } = await newOwner('locked');
      await signInOwner(s, name, now());
      for (let i = 0; i < SIGN_IN_MAX_FAILURES; i++) {
        expect((await postPassword(s, name, `guess number ${i} of many`)).status).toBe(401);
        advance(MINUTE);
      }
      const locked = await postPassword(s, name, TEST_PASSWORD);
      expect(locked.status).toBe(429);
      expect(sessionCookie(locked)).toBeUndefined();
      expect(await textOf(locked)).toContain('נחסמה זמנית');
      // Trying while locked does not extend the lockout: only checked attempts count.
      for (let i = 0; i < 3; i++)
        expect((await postPassword(s, name, 'still guessing here')).status).toBe(429);
      const rows = await s.db.db.select().from(ownerSignInAttempts).where(eq(ownerSignInAttempts.name, name));
      expect(rows).toHaveLength(SIGN_IN_MAX_FAILURES);
      // The first failure leaves the window: one attempt is free again.
      advance(SIGN_IN_WINDOW_MS - SIGN_IN_MAX_FAILURES * MINUTE + 1000);
      expect((await postPassword(s, name, TEST_PASSWORD)).status).toBe(303);
      // Success clears the count.
      expect(
        await s.db.db.select().from(ownerSignInAttempts).where(eq(ownerSignInAttempts.name, name)),
      ).toEqual([]);
      // Another name is not affected by this one's failures.
    });

    it('parallel guesses count too: no more than the limit are checked', async () => {
      const { name } = await newOwner('parallel');
      await signInOwner(s, name, now());
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => postPassword(s, name, `parallel guess ${i} wrong`)),
      );
      const statuses = answers.map((r) => r.status);
      const checked = statuses.filter((x) => x === 401).length;
      expect(checked).toBeLessThanOrEqual(SIGN_IN_MAX_FAILURES);
      expect(statuses.filter((x) => x === 429)).toHaveLength(12 - checked);
      // Each checked guess is a failure on record; the refused ones without a check are not.
      const rows = await s.db.db.select().from(ownerSignInAttempts).where(eq(ownerSignInAttempts.name, name));
      expect(rows).toHaveLength(checked);
      advance(SIGN_IN_WINDOW_MS + 1000);
    });

    it('a new link recovers: it lifts a lockout and replaces the password', async () => {
      const { name } = await newOwner('recover');
      await signInOwner(s, name, now());
      for (let i = 0; i <= SIGN_IN_MAX_FAILURES; i++) await postPassword(s, name, `forgotten attempt ${i}`);
      expect((await postPassword(s, name, TEST_PASSWORD)).status).toBe(429);
      const { token } = await mintLoginLink(s.db.db, name, now());
      const form = await s.fetch(loginPath(token));
      expect(await textOf(form)).toContain('הגדרת סיסמה חדשה');
      const renewed = 'סיסמה חדשה אחרי ששכחתי';
      expect((await enrolByLink(s, token, renewed)).status).toBe(303);
      expect((await postPassword(s, name, TEST_PASSWORD)).status).toBe(401);
      expect((await postPassword(s, name, renewed)).status).toBe(303);
    });

    it('a hash made with fewer iterations verifies and is replaced by one at today’s work factor', async () => {
      const { name } = await newOwner('rehash');
      const old = await hashPassword(TEST_PASSWORD, 20_000);
      await s.db.db.update(owners).set({ passwordHash: old }).where(eq(owners.name, name));
      expect((await postPassword(s, name, TEST_PASSWORD)).status).toBe(303);
      const stored = (await ownerRow(name))?.passwordHash ?? '';
      expect(stored).not.toBe(old);
      expect(stored.startsWith(`pbkdf2-sha256$${PBKDF2_ITERATIONS}$`)).toBe(true);
      expect((await postPassword(s, name, TEST_PASSWORD)).status).toBe(303);
    });

    it(`a session idle for ${IDLE_MINUTES} minutes is over; use keeps it alive`, async () => {
      const { name } = await newOwner('idle');
      const session = await signInOwner(s, name, now());
      for (let i = 0; i < 3; i++) {
        advance((IDLE_MINUTES - 1) * MINUTE);
        expect((await session.get('/console')).status).toBe(200);
      }
      advance(IDLE_MINUTES * MINUTE + 1000);
      const over = await session.get('/console');
      expect(over.status).toBe(401);
      expect(await textOf(over)).toContain('החיבור הסתיים');
      // The stale cookie is removed.
      expect(over.headers.getSetCookie().join()).toMatch(/__Host-chambers_owner=;/);
      // Signing in again works at once.
      expect((await (await signInWithPassword(s, name)).get('/console')).status).toBe(200);
    });

    it(`a session ends ${MAX_HOURS} hours after sign-in however busy`, async () => {
      const { name } = await newOwner('busy');
      const session = await signInOwner(s, name, now());
      const step = (IDLE_MINUTES - 1) * MINUTE;
      let elapsed = 0;
      while (elapsed + step < MAX_HOURS * 60 * MINUTE) {
        advance(step);
        elapsed += step;
        expect((await session.get('/console')).status).toBe(200);
      }
      advance(MAX_HOURS * 60 * MINUTE - elapsed + 1000);
      expect((await session.get('/console')).status).toBe(401);
    });

    it('the sign-in form needs its CSRF token and this origin; a refused post is no attempt', async () => {
      const { name } = await newOwner('csrf');
      await signInOwner(s, name, now());
      const form = await openSignInForm(s);
      const other = await openSignInForm(s);
      const post = (fields: Record<string, string>, headers: Record<string, string>) =>
        s.fetch('/console/login', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
          body: new URLSearchParams(fields),
          redirect: 'manual',
        });
      const right = { name, password: TEST_PASSWORD };
      // No token, another browser's token, no pre-session cookie.
      expect((await post(right, { cookie: form.cookie })).status).toBe(403);
      expect((await post({ ...right, csrf: other.csrf }, { cookie: form.cookie })).status).toBe(403);
      expect((await post({ ...right, csrf: form.csrf }, {})).status).toBe(403);
      // Another site's form.
      expect((await form.post(right, { origin: 'https://evil.example' })).status).toBe(403);
      expect((await form.post(right, { 'sec-fetch-site': 'cross-site', origin: 'null' })).status).toBe(403);
      const refused = await post(right, { cookie: form.cookie });
      expect(sessionCookie(refused)).toBeUndefined();
      expect(await textOf(refused)).toContain('חסר אסימון אבטחה');
      expect(
        await s.db.db.select().from(ownerSignInAttempts).where(eq(ownerSignInAttempts.name, name)),
      ).toEqual([]);
      // The enrolment form is guarded alike.
      const { token } = await mintLoginLink(s.db.db, name, now());
      expect(
        (await post({ token, password: TEST_PASSWORD, confirm: TEST_PASSWORD }, { cookie: form.cookie }))
          .status,
      ).toBe(403);
      expect((await enrolByLink(s, token)).status).toBe(303);
      // The real form goes through.
      expect((await form.post(right)).status).toBe(303);
    });
  };
  const title = `console sign-in without an operator [${stack.db}]`;
  if (stack.db === 'pglite') describe(title, suite);
  else describeWithService('postgres', title, suite);
}
