// The console over HTTP (the browser suite drives the same pages in Chromium): enrolling by single-use
// link (test/console/sign_in.test.ts has the password, lockout and expiry), the session cookie's attributes, CSRF and Origin checks, logout ending the session on the server,
// security headers on every page, and the two credentials never crossing (agent tokens ↛ console,
// owner cookie ↛ /mcp).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOwner, LOGIN_LINK_TTL_MS, loginPath, mintLoginLink } from '../../src/owner/accounts.ts';
import { approvalIdOf, approvalRow, forEachApprovalStack, uniqueNote } from '../contract/_approvals.ts';
import { enrolByLink, openSignInForm, sessionCookie, signInOwner, TEST_PASSWORD } from '../harness/owner.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';

const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(fields),
  redirect: 'manual' as const,
});

forEachApprovalStack('the owner console over HTTP', (env) => {
  const link = async (name = 'dana') => (await mintLoginLink(env().s.db.db, name, env().clock.now())).token;

  it('a link opens the enrolment form (looking spends nothing); posting it signs in once', async () => {
    const { s } = env();
    const token = await link();
    for (let i = 0; i < 2; i++) {
      const page = await s.fetch(loginPath(token));
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<form class="enrol" method="post" action="/console/login">');
    }
    const res = await enrolByLink(s, token);
    expect([res.status, res.headers.get('location')]).toEqual([303, '/console']);
    // Over HTTPS-like hosts the cookie is __Host-, Secure, HttpOnly, SameSite=Strict, for the whole site.
    const set = res.headers.getSetCookie().join('\n');
    expect(set).toMatch(/^__Host-chambers_owner=chs_[\w-]+; /);
    expect(set).toMatch(/Path=\//);
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/Secure/);
    expect(set).toMatch(/SameSite=Strict/);
    const again = await (await openSignInForm(s)).post({
      token,
      password: TEST_PASSWORD,
      confirm: TEST_PASSWORD,
    });
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('כבר השתמשו');
    expect(sessionCookie(again)).toBeUndefined();
    expect((await s.fetch(loginPath(token))).status).toBe(410);
  });

  it('an expired or unknown link signs no one in', async () => {
    const { s, clock } = env();
    const token = await link();
    clock.advance(LOGIN_LINK_TTL_MS + 1000);
    const page = await s.fetch(loginPath(token));
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('תוקף קישור הכניסה פג');
    const signIn = await openSignInForm(s);
    const password = { password: TEST_PASSWORD, confirm: TEST_PASSWORD };
    expect((await signIn.post({ token, ...password })).status).toBe(410);
    expect((await s.fetch(loginPath('chl_nope'))).status).toBe(400);
    expect((await signIn.post({ token: 'chl_nope', ...password })).status).toBe(400);
    env().owner = await signInOwner(s, 'dana', clock.now());
  });

  it('pages need a session: without one (or with an agent’s token) the console answers 401', async () => {
    const { s } = env();
    for (const path of ['/console', '/console/approvals', '/console/cases', '/console/missions']) {
      expect((await s.fetch(path)).status).toBe(401);
      const withToken = await s.fetch(path, { headers: { authorization: `Bearer ${s.tokens.ceo}` } });
      expect(withToken.status).toBe(401);
      expect(await withToken.text()).toContain('נדרשת כניסה');
    }
    expect(
      (await s.fetch('/console/approvals', { headers: { cookie: '__Host-chambers_owner=chs_forged' } }))
        .status,
    ).toBe(401);
  });

  it('the owner’s credentials never open /mcp or /v1', async () => {
    const { s, owner } = env();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const secret = owner.cookie.slice(owner.cookie.indexOf('=') + 1);
    const token = await link();
    const tries: Record<string, string>[] = [
      { cookie: owner.cookie },
      { authorization: `Bearer ${secret}` },
      { authorization: `Bearer ${token}` },
    ];
    for (const extra of tries) {
      expect(
        (await s.fetch('/mcp', { method: 'POST', headers: { ...headers, ...extra }, body })).status,
      ).toBe(401);
      expect((await s.fetch('/v1/tools', { headers: extra })).status).toBe(401);
    }
  });

  it('a form post without the CSRF token, with another session’s, or from another origin does nothing', async () => {
    const { s, owner } = env();
    const id = approvalIdOf(
      await s.call('ceo', 'fixture_note_write', { note: uniqueNote('csrf'), reason: 'x' }),
    );
    const path = `/console/approvals/${id}`;
    const fields = { decision: 'approve', reason: 'forged' };
    const missing = await owner.post(path, fields, { csrf: null });
    expect(missing.status).toBe(403);
    expect(await missing.text()).toContain('חסר אסימון אבטחה');
    const other = await signInOwner(s, 'avi', env().clock.now());
    expect((await owner.post(path, fields, { csrf: other.csrf })).status).toBe(403);
    const cross = await s.fetch(
      path,
      form({ ...fields, csrf: owner.csrf }, { cookie: owner.cookie, origin: 'https://evil.example' }),
    );
    expect(cross.status).toBe(403);
    const crossSite = await s.fetch(
      path,
      form(
        { ...fields, csrf: owner.csrf },
        { cookie: owner.cookie, 'sec-fetch-site': 'cross-site', origin: 'null' },
      ),
    );
    expect(crossSite.status).toBe(403);
    expect(await approvalRow(s, id)).toMatchObject({ state: 'pending' });
    // The real form's post goes through.
    await owner.decide(id, 'approve', 'real');
    expect(await approvalRow(s, id)).toMatchObject({ state: 'approved', decidedByName: 'dana' });
  });

  it('a decision without a reason is refused on the page, and nothing is decided', async () => {
    const { s, owner } = env();
    const id = approvalIdOf(
      await s.call('ceo', 'fixture_note_write', { note: uniqueNote('noreason'), reason: 'x' }),
    );
    const res = await owner.post(`/console/approvals/${id}`, { decision: 'approve', reason: '  ' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('יש לכתוב נימוק');
    expect(await approvalRow(s, id)).toMatchObject({ state: 'pending' });
  });

  it('logout ends the session on the server: the old cookie no longer opens anything', async () => {
    const { s } = env();
    const session = await signInOwner(s, 'leaving', env().clock.now());
    expect((await session.get('/console')).status).toBe(200);
    expect((await session.post('/console/logout', {}, { csrf: null })).status).toBe(403);
    const out = await session.post('/console/logout', {});
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().join()).toMatch(/__Host-chambers_owner=;/);
    expect((await session.get('/console')).status).toBe(401);
  });

  it('every page carries the security headers; pages are never cached; no script anywhere', async () => {
    const { s, owner } = env();
    const token = await link();
    const pages = [
      await owner.get('/console'),
      await owner.get('/console/approvals'),
      await owner.get('/console/missions'),
      await owner.get('/console/cases'),
      await owner.get('/console/cases/00000000-0000-4000-8000-000000000000'),
      await owner.get('/console/nowhere'),
      await s.fetch('/console/approvals'),
      await s.fetch(loginPath(token)),
    ];
    for (const res of pages) {
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).not.toMatch(/unsafe-inline|script-src/);
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const html = await res.text();
      expect(html).toMatch(/^<!doctype html>\n<html lang="he" dir="rtl">/);
      expect(html).not.toMatch(/<script|\sstyle=|\son\w+=/i);
    }
    const css = await s.fetch('/console/style.css');
    expect(css.headers.get('content-type')).toContain('text/css');
    expect(css.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('text from the agents is escaped, never markup', async () => {
    const { s, owner } = env();
    const note = `<img src=x onerror=alert(1)>${uniqueNote('xss')}`;
    const id = approvalIdOf(
      await s.call('ceo', 'fixture_note_write', { note, reason: '<script>alert(1)</script>' }),
    );
    const html = await (await owner.get(`/console/approvals/${id}`)).text();
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toMatch(/<script|<img/);
  });

  it('a case page shows the draft from its blocks, numbered, and the text escaped', async () => {
    const { s, owner } = env();
    const created = await s.call('ceo', 'case_create', {
      case_number: `ערר ${uniqueNote('d')}`,
      title: 'טיוטה',
    });
    if (!created.ok) throw new Error(created.error.message);
    const caseId = (created.data as { case: { id: string } }).case.id;
    const empty = await (await owner.get(`/console/cases/${caseId}`)).text();
    expect(empty).toContain('אין עדיין טיוטה');
    const written = await s.call('writer', 'block_write', {
      case_id: caseId,
      blocks: [{ kind: 'background', text: 'העוררים ביקשו <b>הקלה</b> בקו הבניין.' }],
    });
    expect(written.ok).toBe(true);
    const page = await (await owner.get(`/console/cases/${caseId}`)).text();
    expect(page).not.toContain('אין עדיין טיוטה');
    expect(page).toContain('העוררים ביקשו &lt;b&gt;הקלה&lt;/b&gt; בקו הבניין.');
    expect(page).toContain('[טרם נכתב: כותרת ההחלטה]');
  });
});

describe('the owner console on loopback', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ socket: true });
  });
  afterAll(async () => s?.close());

  it('keeps the session in a cookie without Secure (plain HTTP on 127.0.0.1), still HttpOnly and Strict', async () => {
    await addOwner(s.db.db, 'local');
    const { token } = await mintLoginLink(s.db.db, 'local', new Date());
    const res = await enrolByLink(s, token);
    expect(res.status).toBe(303);
    const set = res.headers.getSetCookie().join('\n');
    expect(set).toMatch(/^chambers_owner=chs_/);
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Strict/);
    expect(set).not.toMatch(/Secure/);
  });
});
