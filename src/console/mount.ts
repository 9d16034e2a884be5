// The owner's console under /console: server-rendered pages (Hebrew, right to left, no scripts), signed in
// with a password the owner set through a single-use enrolment link, kept by an HttpOnly SameSite=Strict session cookie (Secure except on loopback), every
// form with a CSRF token and every POST from this origin only. Agent tokens never open it (it reads only its
// cookie), and its cookie never opens /mcp (the guard reads only bearer agent tokens).
import type { Hono } from 'hono';
import { Hono as HonoApp } from 'hono';
import type { AppEnv } from '../http/context.ts';
import type { SessionPolicy } from '../owner/accounts.ts';
import { type ActOptions, ownerActor } from './act.ts';
import { type ConsoleEnv, render } from './http.ts';
import { securityHeaders } from './layout.ts';
import { errorBody } from './pages/login.ts';
import { pageRoutes } from './routes.ts';
import { signInRoutes } from './sign_in.ts';
import { CONSOLE_CSS } from './style.ts';

export function mountConsole(app: Hono<AppEnv>, o: ActOptions & { session: SessionPolicy }): void {
  const con = new HonoApp<ConsoleEnv>();
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

  signInRoutes(con, { now: o.runtime.now, session: o.session });
  pageRoutes(con, ownerActor(o), o.runtime);

  // A route the console does not have: its own page (the app's JSON 404 is for the tool routes).
  con.all('*', (c) => render(c, 'העמוד לא נמצא', errorBody('אין עמוד כזה במסוף.'), {}, 404));
  app.route('/console', con);
}
