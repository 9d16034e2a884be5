// The owner's console under /console: server-rendered pages (Hebrew, right to left, no scripts), signed in
// by a single-use link, kept by an HttpOnly SameSite=Strict session cookie (Secure except on loopback), every
// form with a CSRF token and every POST from this origin only. Agent tokens never open it (it reads only its
// cookie), and its cookie never opens /mcp (the guard reads only bearer agent tokens).

import type { Context, Hono, MiddlewareHandler } from 'hono';
import { Hono as HonoApp } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { liveCase } from '../cases/live.ts';
import { errorCatalogue } from '../contract/errors.ts';
import { constantTimeEqual, sha256Hex } from '../contract/hash.ts';
import { count, eq } from '../db/orm.ts';
import { cases } from '../db/schema/cases.ts';
import { haiMissions } from '../db/schema/hai.ts';
import { type OwnerRow, ownerApprovals, ownerLoginLinks } from '../db/schema/owners.ts';
import type { AppEnv } from '../http/context.ts';
import { csrfTokenFor, endSession, ownerForSession, redeemLoginLink } from '../owner/accounts.ts';
import { approvalById, approvalsIn } from '../owner/approvals.ts';
import { type ActOptions, ownerActor } from './act.ts';
import { doneNotices } from './labels.ts';
import { type Html, page, type Section, type Shell, securityHeaders } from './layout.ts';
import { approvalCard, approvalsBody, casesNamed } from './pages/approvals.ts';
import { caseBody, casesBody } from './pages/cases.ts';
import { homeBody } from './pages/home.ts';
import { errorBody, loginForm, loginRefused, signedOut } from './pages/login.ts';
import { missionBody, missionsBody } from './pages/missions.ts';
import { caseDetail, caseList, missionDetail, missionList } from './queries.ts';
import { CONSOLE_CSS } from './style.ts';

type ConsoleEnv = {
  Variables: AppEnv['Variables'] & {
    owner: OwnerRow;
    session: string;
    csrf: string;
    form: Record<string, string>;
  };
};

/** Console forms are a few fields of text. */
const MAX_FORM_BYTES = 64 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isLoopback = (c: Context) => ['localhost', '127.0.0.1', '[::1]'].includes(new URL(c.req.url).hostname);
/** `__Host-` binds the cookie to this host over HTTPS; on loopback (plain HTTP) a browser refuses Secure. */
const cookieName = (c: Context) => (isLoopback(c) ? 'chambers_owner' : '__Host-chambers_owner');

export function mountConsole(app: Hono<AppEnv>, o: ActOptions): void {
  const con = new HonoApp<ConsoleEnv>();
  const actor = ownerActor(o);

  const render = (
    c: Context<ConsoleEnv>,
    title: string,
    body: Html | Html[],
    shell: Partial<Shell> = {},
    status: ContentfulStatusCode = 200,
  ) =>
    c.html(
      page(
        title,
        {
          owner: c.get('owner') === undefined ? null : { name: c.get('owner').name, csrf: c.get('csrf') },
          ...shell,
        },
        body,
      ),
      status,
    );

  con.use('*', securityHeaders);
  con.get('/style.css', (c) =>
    c.body(CONSOLE_CSS, 200, {
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
    }),
  );

  // The request's stores, released once the page is rendered (pages are never streamed).
  con.use('*', async (c, next) => {
    const services = await o.runtime.services(c);
    c.set('services', services);
    try {
      await next();
    } finally {
      await services.release?.();
    }
  });

  // POSTs come from this origin's forms only, and are small. Browsers say where a request comes from in
  // Sec-Fetch-Site; the Origin header is the fallback (under Referrer-Policy: no-referrer a same-origin form
  // POST carries `Origin: null`, so Sec-Fetch-Site decides when it is there).
  const formPost: MiddlewareHandler<ConsoleEnv> = async (c, next) => {
    const site = c.req.header('sec-fetch-site');
    const origin = c.req.header('origin');
    const sameOrigin =
      site !== undefined
        ? site === 'same-origin'
        : origin === undefined || origin === new URL(c.req.url).origin;
    if (!sameOrigin) {
      return render(c, 'הפעולה נחסמה', errorBody('הטופס נשלח מאתר אחר ולכן נחסם.'), {}, 403);
    }
    const length = Number(c.req.header('content-length') ?? '0');
    if (length > MAX_FORM_BYTES) return render(c, 'הפעולה נחסמה', errorBody('הטופס גדול מדי.'), {}, 413);
    const body = await c.req.parseBody();
    const form: Record<string, string> = {};
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string') form[k] = v;
    c.set('form', form);
    await next();
  };

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
    const now = o.runtime.now();
    const why =
      row === undefined ? 'invalid' : row.usedAt !== null ? 'used' : row.expiresAt <= now ? 'expired' : null;
    if (why !== null) return render(c, 'כניסה למסוף', loginRefused(why), {}, why === 'invalid' ? 400 : 410);
    return render(c, 'כניסה למסוף', loginForm(token));
  });

  con.post('/login', formPost, async (c) => {
    const redeemed = await redeemLoginLink(c.get('services').db, c.get('form').token ?? '', o.runtime.now());
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
      session === undefined ? null : await ownerForSession(c.get('services').db, session, o.runtime.now());
    if (session === undefined || owner === null) {
      return render(c, 'נדרשת כניסה', signedOut('כדי להיכנס למסוף צריך קישור כניסה.'), {}, 401);
    }
    c.set('owner', owner);
    c.set('session', session);
    c.set('csrf', csrfTokenFor(session));
    await next();
  });

  // Every form carries the session's CSRF token; a POST without it (or with another session's) does nothing.
  const checked: MiddlewareHandler<ConsoleEnv> = async (c, next) => {
    const given = c.get('form').csrf ?? '';
    if (!constantTimeEqual(given, c.get('csrf'))) {
      return render(
        c,
        'הפעולה נחסמה',
        errorBody('הטופס אינו תקף (חסר אסימון אבטחה). טענו את העמוד מחדש ונסו שוב.'),
        {},
        403,
      );
    }
    await next();
  };

  con.post('/logout', formPost, checked, async (c) => {
    await endSession(c.get('services').db, c.get('session'), o.runtime.now());
    deleteCookie(c, cookieName(c), { path: '/', secure: !isLoopback(c) });
    return c.html(page('יצאת מהמסוף', { owner: null }, signedOut('החיבור הסתיים.')));
  });

  const notice = (c: Context<ConsoleEnv>) => {
    const done = c.req.query('done');
    const text = done === undefined ? undefined : doneNotices[done];
    return text === undefined ? undefined : { kind: 'ok' as const, text };
  };
  const section = (active: Section) => (c: Context<ConsoleEnv>) => ({ active, notice: notice(c) });

  con.get('/', async (c) => {
    const db = c.get('services').db;
    const [pending, missions, open] = await Promise.all([
      db.select({ n: count() }).from(ownerApprovals).where(eq(ownerApprovals.state, 'pending')),
      db.select({ n: count() }).from(haiMissions).where(eq(haiMissions.state, 'active')),
      db.select({ n: count() }).from(cases).where(liveCase),
    ]);
    return render(
      c,
      `שלום, ${c.get('owner').name}`,
      homeBody({ pending: pending[0]?.n ?? 0, activeMissions: missions[0]?.n ?? 0, cases: open[0]?.n ?? 0 }),
      section('home')(c),
    );
  });

  con.get('/approvals', async (c) => {
    const db = c.get('services').db;
    const [pending, decided] = await Promise.all([
      approvalsIn(db, ['pending']),
      approvalsIn(db, ['approved', 'rejected', 'used'], 30),
    ]);
    const named = await casesNamed(db, pending);
    return render(
      c,
      'בקשות אישור',
      approvalsBody(pending, decided, named, c.get('csrf')),
      section('approvals')(c),
    );
  });

  con.get('/approvals/:id', async (c) => {
    const id = c.req.param('id');
    const db = c.get('services').db;
    const row = UUID.test(id) ? await approvalById(db, id) : null;
    if (row === null)
      return render(c, 'בקשה לא נמצאה', errorBody('אין בקשת אישור כזו.'), section('approvals')(c), 404);
    return render(
      c,
      'בקשת אישור',
      approvalCard(row, await casesNamed(db, [row]), c.get('csrf')),
      section('approvals')(c),
    );
  });

  /** Runs one owner action and redirects to `back` with a fixed notice, or shows why it was refused. */
  const action = (
    tool: string,
    args: (c: Context<ConsoleEnv>) => Record<string, unknown>,
    back: (c: Context<ConsoleEnv>) => string,
    done: (c: Context<ConsoleEnv>) => string,
  ) =>
    [
      formPost,
      checked,
      async (c: Context<ConsoleEnv>) => {
        const envelope = await actor.act(c, c.get('owner'), tool, args(c));
        if (envelope.ok) return c.redirect(`${back(c)}?done=${done(c)}`, 303);
        const status = errorCatalogue[envelope.error.code].http as ContentfulStatusCode;
        const issues =
          (envelope.error.details?.issues as { path: string; message: string }[] | undefined) ?? [];
        const text = issues.some((i) => i.path === 'reason') ? 'יש לכתוב נימוק.' : envelope.error.message;
        return render(c, 'הפעולה לא בוצעה', errorBody(text, envelope.error.hint), {}, status);
      },
    ] as const;

  const form = (c: Context<ConsoleEnv>, name: string) => c.get('form')[name] ?? '';

  con.post(
    '/approvals/:id',
    ...action(
      'approval_review',
      (c) => ({ approval_id: c.req.param('id'), decision: form(c, 'decision'), reason: form(c, 'reason') }),
      (c) => `/console/approvals/${c.req.param('id')}`,
      (c) => (form(c, 'decision') === 'reject' ? 'rejected' : 'approved'),
    ),
  );

  con.get('/missions', async (c) =>
    render(c, 'משימות', missionsBody(await missionList(c.get('services').db)), section('missions')(c)),
  );

  con.get('/missions/:id', async (c) => {
    const id = c.req.param('id');
    const d = UUID.test(id) ? await missionDetail(c.get('services').db, id, o.runtime.now()) : null;
    if (d === null)
      return render(c, 'משימה לא נמצאה', errorBody('אין משימה כזו.'), section('missions')(c), 404);
    return render(c, d.mission.title, missionBody(d, c.get('csrf')), section('missions')(c));
  });

  const missionPage = (c: Context<ConsoleEnv>) => {
    const id = form(c, 'mission_id');
    return UUID.test(id) ? `/console/missions/${id}` : '/console/missions';
  };
  con.post(
    '/leases/:id/revoke',
    ...action(
      'hai_revoke_session',
      (c) => ({ lease_id: c.req.param('id'), reason: form(c, 'reason') }),
      missionPage,
      () => 'revoked',
    ),
  );
  con.post(
    '/projects/:id/next-step',
    ...action(
      'hai_accept_next_step',
      (c) => ({
        project_id: c.req.param('id'),
        proposal_version: form(c, 'proposal_version'),
        reason: form(c, 'reason'),
      }),
      missionPage,
      () => 'accepted',
    ),
  );

  con.get('/cases', async (c) =>
    render(c, 'תיקים', casesBody(await caseList(c.get('services').db)), section('cases')(c)),
  );

  con.get('/cases/:id', async (c) => {
    const id = c.req.param('id');
    const db = c.get('services').db;
    const detail = UUID.test(id) ? await caseDetail(db, id) : null;
    if (detail === null)
      return render(c, 'תיק לא נמצא', errorBody('אין תיק כזה (או שנמחק).'), section('cases')(c), 404);
    const body = await caseBody({ db, detail, csrf: c.get('csrf'), canCall: (t) => actor.grants.has(t) });
    return render(c, `${detail.row.caseNumber} — ${detail.row.title}`, body, section('cases')(c));
  });

  con.post(
    '/cases/:id/delete',
    ...action(
      'case_delete',
      (c) => ({ case_id: c.req.param('id'), reason: form(c, 'reason') }),
      () => '/console/cases',
      () => 'deleted',
    ),
  );

  // A route the console does not have: its own page (the app's JSON 404 is for the tool routes).
  con.all('*', (c) => render(c, 'העמוד לא נמצא', errorBody('אין עמוד כזה במסוף.'), {}, 404));
  app.route('/console', con);
}
