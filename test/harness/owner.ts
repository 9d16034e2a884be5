// The owner in tests without a browser: an owner row, a login link, and the console's HTTP forms driven with
// the session cookie and CSRF token, exactly as the browser suite (test/console/) drives them with Chromium.
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

/** Creates the owner (if needed), mints a link and signs in through the console's login form. */
export async function signInOwner(s: TestServer, name = 'dana', now = new Date()): Promise<OwnerSession> {
  await addOwner(s.db.db, name);
  const { token } = await mintLoginLink(s.db.db, name, now);
  const form = await s.fetch(loginPath(token));
  expect(form.status).toBe(200);
  const res = await s.fetch('/console/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
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
