// The owner in tests without a browser: an owner row, an enrolment link, and the console's HTTP forms driven
// with the cookies and CSRF tokens, exactly as the browser suite (test/console/) drives them with Chromium.
import { expect } from 'vitest';
import { tools } from '../../entry/registries.ts';
import { ownerGrants } from '../../src/console/act.ts';
import type { Envelope } from '../../src/contract/envelope.ts';
import { callTool } from '../../src/contract/execute.ts';
import { buildRegistry } from '../../src/contract/registry.ts';
import {
  addOwner,
  csrfTokenFor,
  loginPath,
  mintLoginLink,
  ownerPrincipal,
} from '../../src/owner/accounts.ts';
import { toolContext } from './context.ts';
import type { TestServer } from './server.ts';

export interface OwnerSession {
  name: string;
  cookie: string;
  csrf: string;
  /** GET a console page with the session cookie. */
  get(path: string): Promise<Response>;
  /** POST a console form (the CSRF token added unless `csrf: null`). */
  post(path: string, fields: Record<string, string>, options?: { csrf?: string | null }): Promise<Response>;
  /** Approves or rejects a request in the console; expects the redirect that follows success. */
  decide(approvalId: string, decision: 'approve' | 'reject', reason: string): Promise<void>;
}

/** The session cookie of a response (the console names it per host: __Host- prefixed over HTTPS). */
export function sessionCookie(res: Response): string | undefined {
  const set = res.headers.getSetCookie().find((c) => /^(__Host-)?chambers_owner=/.test(c));
  return set?.split(';')[0];
}

/** The password the harness enrols owners with (any password of the console's rules would do). */
export const TEST_PASSWORD = 'שלוש מילים ארוכות לבדיקה';

/** The pre-session cookie a sign-in form sets (the forms' CSRF token is bound to it). */
export function signInCookie(res: Response): string | undefined {
  const set = res.headers.getSetCookie().find((c) => /^(__Host-)?chambers_signin=/.test(c));
  return set?.split(';')[0];
}

/** A sign-in or enrolment form as the console serves it: its pre-session cookie and CSRF token. */
export interface SignInForm {
  status: number;
  html: string;
  cookie: string;
  csrf: string;
  /** Posts the form's fields (the CSRF token and cookie added) to /console/login. */
  post(fields: Record<string, string>, headers?: Record<string, string>): Promise<Response>;
}

/** Fetches a path of a server (a TestServer's `fetch`, or a Worker's address under workerd). */
export type Fetcher = (path: string, init?: RequestInit) => Promise<Response>;

/** GETs a sign-in page (`/console/login`, a link, any page without a session) and reads its form. */
export async function openSignInForm(s: TestServer | Fetcher, path = '/console/login'): Promise<SignInForm> {
  const fetcher: Fetcher = typeof s === 'function' ? s : (p, init) => s.fetch(p, init);
  const res = await fetcher(path, { redirect: 'manual' });
  const html = await res.text();
  const cookie = signInCookie(res);
  const csrf = /name="csrf" value="([0-9a-f]{64})"/.exec(html)?.[1];
  if (cookie === undefined || csrf === undefined) {
    throw new Error(`${path} (${res.status}) served no sign-in form: ${html.slice(0, 400)}`);
  }
  return {
    status: res.status,
    html,
    cookie,
    csrf,
    post: (fields, headers = {}) =>
      fetcher('/console/login', {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ csrf, ...fields }),
        redirect: 'manual',
      }),
  };
}

/** Opens a link and sets the password through its form; the answer of the POST. */
export async function enrolByLink(s: TestServer, token: string, password = TEST_PASSWORD): Promise<Response> {
  const form = await openSignInForm(s, loginPath(token));
  expect(form.status).toBe(200);
  return form.post({ token, password, confirm: password });
}

/** Signs in with name and password through the sign-in form; the answer of the POST. */
export async function postPassword(s: TestServer, name: string, password: string): Promise<Response> {
  const form = await openSignInForm(s);
  return form.post({ name, password });
}

/** Creates the owner (if needed), mints a link and enrols (sets TEST_PASSWORD) through the console's form. */
export async function signInOwner(s: TestServer, name = 'dana', now = new Date()): Promise<OwnerSession> {
  await addOwner(s.db.db, name);
  const { token } = await mintLoginLink(s.db.db, name, now);
  const res = await enrolByLink(s, token);
  expect(res.status).toBe(303);
  return sessionFrom(s, name, res);
}

/** Signs in with the password alone (the owner enrolled before). */
export async function signInWithPassword(
  s: TestServer,
  name = 'dana',
  password = TEST_PASSWORD,
): Promise<OwnerSession> {
  const res = await postPassword(s, name, password);
  expect(res.status).toBe(303);
  return sessionFrom(s, name, res);
}

/** The console session a successful sign-in answer opened. */
export function sessionFrom(s: TestServer, name: string, res: Response): OwnerSession {
  const cookie = sessionCookie(res);
  if (cookie === undefined) throw new Error('the console set no session cookie');
  const secret = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1));
  const csrf = csrfTokenFor(secret);
  const session: OwnerSession = {
    name,
    cookie,
    csrf,
    get: (path) => s.fetch(path, { headers: { cookie }, redirect: 'manual' }),
    post: (path, fields, options = {}) => {
      const token = options.csrf === undefined ? csrf : options.csrf;
      return s.fetch(path, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...fields, ...(token === null ? {} : { csrf: token }) }),
        redirect: 'manual',
      });
    },
    async decide(approvalId, decision, reason) {
      const res = await session.post(`/console/approvals/${approvalId}`, { decision, reason });
      if (res.status !== 303)
        throw new Error(`deciding ${approvalId} answered ${res.status}: ${await res.text()}`);
    },
  };
  return session;
}

/**
 * Calls a tool through the kernel as the owner principal (what the console's actions do), on the test
 * server's stores: for the owner-only tools' own suites, which need no browser and no form.
 */
export async function callAsOwner(
  s: TestServer,
  name: string,
  tool: string,
  args: Record<string, unknown>,
  options: { now?: () => Date; ownerGate?: 'ack' | 'approval' } = {},
): Promise<Envelope> {
  const { owner } = await addOwner(s.db.db, name);
  const registry = buildRegistry(tools, { ownerGate: options.ownerGate ?? 'approval' });
  const registered = registry.get(tool);
  if (registered === undefined) throw new Error(`no tool ${tool}`);
  const ctx = toolContext(
    { db: s.db.db, kv: s.kv },
    {
      agent: ownerPrincipal(owner.name),
      owner: { id: owner.id, name: owner.name },
      ...(options.now === undefined ? {} : { now: options.now }),
    },
  );
  return callTool({ tool: registered, args, ctx, grants: ownerGrants(registry), checkOutputs: true });
}
